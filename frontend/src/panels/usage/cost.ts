// What the model cost, as the dashboard words it: "$0.0042" for a run, a conversation or a day; "price unknown"
// where a call's model is not in the price table and nobody set a price for it (unknown is never shown as $0).

import type { Run } from "../../api/types";

/** "$0.0042", "$0.001", "$0.50", "$1,234.00": cents, or two significant digits where cents would show nothing. */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount) || amount <= 0) return "$0.00";
  if (amount < 0.0001) return "< $0.0001";
  const decimals = amount < 1 ? Math.max(2, 1 - Math.floor(Math.log10(amount))) : 2;
  return `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: decimals })}`;
}

/** A decimal string from the API as a number of dollars (0 when missing or malformed). */
export function usd(value: string | null | undefined): number {
  const amount = Number(value ?? 0);
  return Number.isFinite(amount) ? amount : 0;
}

export interface CostTotals {
  tokens: number;
  costUsd: number;
  unpricedCalls: number;
}

/** "$0.0042"; "$0.0042 + 2 calls price unknown"; "1,234 tokens · price unknown" (just "price unknown" where the
 * tokens are shown beside it); "" when the model was not called or answered nothing (no tokens, nothing to pay). */
export function costText({ tokens, costUsd, unpricedCalls }: CostTotals, tokensShown = false): string {
  if (tokens <= 0 && costUsd <= 0) return "";
  if (unpricedCalls === 0) return formatUsd(costUsd);
  if (costUsd > 0) return `${formatUsd(costUsd)} + ${plural(unpricedCalls, "call")} price unknown`;
  return tokensShown ? "price unknown" : `${tokens.toLocaleString("en-US")} tokens · price unknown`;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

function runTotals(run: Run): CostTotals {
  return {
    tokens: (run.prompt_tokens || 0) + (run.completion_tokens || 0),
    costUsd: usd(run.cost_usd),
    unpricedCalls: run.unpriced_calls ?? 0,
  };
}

/** A finished run's cost for its footer, which shows its tokens beside it (totals are added up when it ends). */
export function runCostText(run: Run): string {
  return costText(runTotals(run), true);
}

/** The conversation's cost so far: its finished runs added up ("" before any model call). */
export function conversationCostText(runs: readonly Run[]): string {
  const total: CostTotals = { tokens: 0, costUsd: 0, unpricedCalls: 0 };
  for (const run of runs) {
    const one = runTotals(run);
    total.tokens += one.tokens;
    total.costUsd += one.costUsd;
    total.unpricedCalls += one.unpricedCalls;
  }
  return costText(total);
}
