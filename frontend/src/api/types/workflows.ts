// Workflows (GET /api/workflows/, POST /api/runs/<id>/workflow/, POST /api/workflows/<id>/runs/): their steps,
// versions, replays, schedules and webhooks.

import type { ConversationFile } from "./conversations";
import type { Id } from "./id";
import type { ProfileMode, ProfileStart } from "./browserprofiles";
import type { RunStatus } from "./runs";

export interface WorkflowParameter {
  name: string;
  type: string;
  default: string;
  label: string;
}

/** The element a step was recorded on (null for a step that aims at none, e.g. navigate). */
export interface WorkflowStepTarget {
  tag: string;
  role: string;
  name: string;
}

/** What a replay checks around a step: the page's address before it (an fnmatch pattern), its effects after. */
export interface WorkflowStepChecks {
  url?: string;
  navigated?: true;
  value?: true;
  gone?: true;
}

export interface WorkflowStep {
  action: string;
  arguments: Record<string, unknown>;
  intent: string;
  url: string;
  target?: WorkflowStepTarget | null;
  checks?: WorkflowStepChecks;
  /** An extraction step's named output and its JSON schema. */
  output?: { name: string; schema: Record<string, unknown> } | null;
}

export interface Workflow {
  id: Id;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  version: number | null;
  parameters: WorkflowParameter[];
  steps: WorkflowStep[];
  /** Where a replay's end is POSTed ("" for nowhere); null unless the caller owns the workflow. */
  webhook_url: string | null;
  /** The caller's access: only the owner changes, schedules or shares it; a controller runs it. */
  access: "owner" | "controller" | "viewer";
  owner: string;
}

/** One replay of a workflow (GET /api/workflows/<id>/runs/). */
export interface WorkflowRun {
  id: Id;
  conversation: Id;
  status: RunStatus;
  error: string;
  version: number | null;
  parameters: Record<string, string>;
  url: string;
  created_at: string;
  finished_at: string | null;
  prompt_tokens: number;
  /** What the replay extracted: output name → JSON value (empty when the workflow extracts nothing). */
  outputs?: Record<string, unknown>;
  /** The files its steps downloaded. */
  downloads?: ConversationFile[];
}

/**
 * One step in `PATCH /api/workflows/<id>/ {"steps": [...]}` (the whole list, in its new order; a step left out is
 * removed). `from` is the step's 0-based position in the current version: it keeps that step's recorded element
 * and whatever is not given.
 */
export interface WorkflowStepEdit {
  from?: number;
  action?: string;
  arguments?: Record<string, unknown>;
  intent?: string;
  checks?: WorkflowStepChecks;
}

export interface WorkflowPatch {
  name?: string;
  description?: string;
  /** Parameter renames, old name → new name. */
  rename?: Record<string, string>;
  defaults?: Record<string, string>;
  steps?: WorkflowStepEdit[];
}

/** GET /api/workflows/<id>/versions/, newest first; `changes` is a unified diff of the steps' lines. */
export interface WorkflowVersion {
  number: number;
  note: string;
  created_at: string;
  source_run: Id | null;
  steps: number;
  changes: string[];
}

/** When a scheduled replay reaches a step that needs a yes: wait for the owner, or stop there. */
export type ScheduleConfirmations = "wait" | "refuse";

export interface WorkflowSchedule {
  id: Id;
  cron: string;
  timezone: string;
  parameters: Record<string, string>;
  confirmations: ScheduleConfirmations;
  /** The browser profile each replay starts from. */
  profile: Id | null;
  profile_mode: ProfileMode;
  last_run: string | null;
  created_at: string;
}

/** A webhook set on a workflow: its secret is shown this once. */
export interface WorkflowWebhook {
  url: string;
  secret: string;
}

export interface WebhookAttempt {
  at: string;
  status_code: number | null;
  error: string;
  ms: number;
}

/** One replay's webhook: what was sent and every attempt. */
export interface WebhookDelivery {
  id: Id;
  run: Id;
  url: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  log: WebhookAttempt[];
  payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface WorkflowScheduleInput extends ProfileStart {
  cron: string;
  timezone: string;
  parameters: Record<string, string>;
  confirmations: ScheduleConfirmations;
}
