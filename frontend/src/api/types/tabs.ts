// The conversation's browser tabs, what was read from them into the context, and those shared with a run.

/** A tab the user shared with a run (its title and URL as they were). */
export interface SharedTab {
  id: string;
  title?: string;
  url?: string;
}

/** What was read from a tab when it was added to the conversation's context (its text stays on the server). */
export interface TabContext {
  tab_id: string;
  title: string;
  url: string;
  /** How the text was found: "readability", "semantic", "body", or "restricted" / "empty" (no text; see `reason`). */
  method: string;
  /** Length of the whole readable text, before the limit was applied. */
  length: number;
  truncated: boolean;
  /** Why there is no text (a restricted page, a PDF, a closed tab), in words for the user; "" when there is. */
  reason: string;
  extracted_at: string | null;
}

/** A tab of the conversation's browser session; ids come from the browser pool and are strings. */
export interface Tab {
  id: string;
  title: string;
  url: string;
  favicon: string;
  active: boolean;
  /** What was read from it, when it is in the context (GET .../tabs/ and `tabs.updated` carry it). */
  context?: TabContext | null;
}
