// Runs: the agent's turns and what was run by hand — their steps, plan, confirmations and model calls.

import type { Id } from "./id";
import type { SharedTab } from "./tabs";

export type RunStatus = "queued" | "running" | "waiting" | "succeeded" | "failed" | "aborted";

export type StepKind = "thought" | "action" | "system";
export type StepStatus = "running" | "succeeded" | "failed";

export interface Step {
  id: Id;
  run: Id;
  index: number;
  kind: StepKind;
  action: string;
  arguments: unknown;
  observation: string;
  status: StepStatus;
  error: string;
  started_at: string | null;
  duration_ms: number | null;
  screenshot_url: string | null;
}

export type PlanStepStatus = "pending" | "running" | "done" | "failed" | "skipped";

/** One step of the plan the agent published for a run (`run.plan`, `plan.updated`). */
export interface PlanStep {
  id: string;
  title: string;
  depends_on: string[];
  status: PlanStepStatus;
}

export type ConfirmationStatus = "pending" | "approved" | "denied" | "expired";

/** A step waiting for the user's yes; no answer before `expires_at` means no. */
export interface Confirmation {
  id: Id;
  run: Id;
  step: Id | null;
  action: string;
  arguments: unknown;
  reason: string;
  url: string;
  status: ConfirmationStatus;
  /** Username of who answered; null while pending or when it expired. */
  decided_by: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

export interface Run {
  id: Id;
  conversation: Id;
  /** "Run 1", "Run 2" … within its conversation. */
  number?: number;
  status: RunStatus;
  error: string;
  prompt_tokens: number;
  completion_tokens: number;
  /** What the run's priced model calls cost, US dollars (a decimal string), once it ended. */
  cost_usd?: string;
  /** Model calls of the run the price table could not price. */
  unpriced_calls?: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** `turn`: the agent's; `action`: a browser action run by hand; `tool`: a page tool called by hand;
   * `workflow`: a saved workflow replayed. */
  kind?: "turn" | "action" | "tool" | "workflow";
  /** While queued: 1 for the next run to be taken, 2 for the one after it ...; null otherwise. */
  queue_position?: number | null;
  plan?: PlanStep[];
  shared_tabs?: SharedTab[];
  /** Who set it going (their message, action, tool call or replay); null when nobody is known. */
  started_by?: string | null;
  /** How many times it called the model: "What the model saw" has something to show only when > 0. */
  model_calls?: number;
  /** Where its Playwright trace (trace.zip) is served; null: none was kept. */
  trace_url?: string | null;
  /** Only on runs from the REST API (GET .../runs/, GET /api/runs/<id>/). */
  steps?: Step[];
  confirmations?: Confirmation[];
}

/** One request the run sent to the model, exactly as sent (screenshots replaced by their size), and its answer. */
export interface ModelCall {
  index: number;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  duration_ms: number;
  created_at?: string;
}

/** GET /api/runs/<id>/debug/: what the model saw. */
export interface RunDebug {
  run: Id;
  shared_tabs: SharedTab[];
  model_calls: ModelCall[];
}

/** A browser action run by hand (POST /api/conversations/<id>/actions/), recorded as a one-step run. */
export type BrowserAction =
  | "navigate"
  | "go_back"
  | "go_forward"
  | "refresh"
  | "switch_tab"
  | "open_tab"
  | "close_tab";

export interface ActionBody {
  action: BrowserAction;
  arguments?: Record<string, unknown>;
}
