// What the model cost: GET /api/usage/?days=N (the signed-in user's calls per UTC day and model), and the totals a
// run and a conversation carry. Money is a decimal string in US dollars; calls the price table could not price
// are counted in `unpriced_calls` (their price is unknown, not zero).

/** One UTC day's calls to one model. */
export interface UsageRow {
  /** "YYYY-MM-DD", a UTC date. */
  day: string;
  model: string;
  provider: string;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** The part of prompt_tokens read from the provider's prompt cache. */
  cached_tokens: number;
  tokens: number;
  cost_usd: string;
  unpriced_calls: number;
}

export interface UsageTotals {
  calls: number;
  tokens: number;
  cost_usd: string;
  unpriced_calls: number;
}

/** GET /api/usage/?days=N */
export interface Usage {
  days: number;
  /** The first UTC date counted; the last is today. */
  since: string;
  currency: "USD";
  rows: UsageRow[];
  total: UsageTotals;
}

/** A conversation's model calls added up (`Conversation.usage`). */
export interface ConversationUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: string;
  unpriced_calls: number;
}
