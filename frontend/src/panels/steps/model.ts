// What a run block shows, worked out from the data: labels, durations, a thought's text, how a step is
// drawn, and which step each confirmation belongs to.

import type { Confirmation, ConversationFile, Id, PlanStep, Run, RunRecording, Step } from "../../api/types";
import { compactJson } from "../../format";
import { personLabel } from "../../people";
import type { ConfirmationActions } from "../confirmation";

export interface RunItem {
  run: Run;
  steps: Step[];
  /** The action of a run started by hand ("navigate"); null or absent for the agent's turns. */
  manual?: string | null;
  confirmations?: Confirmation[];
  plan?: PlanStep[];
  /** The files the run's steps downloaded, shown as cards. */
  files?: ConversationFile[];
  /** The reader owns the conversation: what the model saw and "Save as workflow" are offered to them alone. */
  ownerReads?: boolean;
}

/** What the run blocks can ask of the page: answer a confirmation, open a run's model calls. */
export interface RunActions extends ConfirmationActions {
  /** `label`: how the run is named in its conversation ("Run 3"). */
  openDebug(runId: Id, label: string): void;
  /** Saves a run that worked as a workflow; resolves to what to tell the user ("" when they cancelled). */
  saveWorkflow?(runId: Id, label: string): Promise<string>;
  /** A finished run's recording, to watch it again. */
  loadRecording?(runId: Id): Promise<RunRecording>;
}
/**
 * "Agent run", "Workflow replay", or who ran an action by hand and which: "You: navigate" for the reader's own,
 * "bob: navigate" for a teammate's (the same on every participant's page), "By hand: navigate" when nobody is known.
 */
export function runLabel(
  manual: string | null | undefined,
  kind?: Run["kind"],
  startedBy?: string | null,
  me?: string,
): string {
  if (kind === "workflow") return "Workflow replay";
  return manual ? `${personLabel(startedBy, "By hand", me)}: ${manual}` : "Agent run";
}

/** "Run 3": the run's number in its conversation ("" from a server that does not number runs). */
export function runNumberLabel(run: Pick<Run, "number">): string {
  return run.number ? `Run ${run.number}` : "";
}

/** Who set a run going, shown on its block when no message of theirs stands above it (by hand, a replay). */
export function runStarter(run: Pick<Run, "started_by" | "kind">, manual: string | null | undefined): string | null {
  return manual || run.kind === "workflow" ? (run.started_by ?? null) : null;
}

/** What the run's footer offers the reader: what the model saw (where it was called) and saving it as a workflow. */
export function runOffers(
  run: Pick<Run, "kind" | "status" | "model_calls">,
  manual: string | null | undefined,
  ownerReads: boolean,
): { debug: boolean; save: boolean } {
  const agentTurn = !manual && run.kind !== "action" && run.kind !== "tool";
  const calledModel = run.model_calls === undefined ? agentTurn && run.status !== "queued" : run.model_calls > 0;
  return {
    debug: ownerReads && calledModel,
    save: ownerReads && agentTurn && run.kind !== "workflow" && run.status === "succeeded",
  };
}

export function runDurationMs(run: Run): number | null {
  if (!run.started_at || !run.finished_at) return null;
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export function thoughtText(step: Step): string {
  if (step.observation) return step.observation;
  const args = step.arguments;
  if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    for (const key of ["thought", "text", "content"]) if (typeof record[key] === "string") return record[key];
  }
  return compactJson(args);
}

/** How a step is drawn: the agent's reasoning, a notice line, or an action (the default). */
export function stepStyle(step: Pick<Step, "kind" | "action">): "thought" | "notice" | "action" {
  if (step.kind === "thought") return "thought";
  if (step.kind === "system" && step.action === "notice") return "notice";
  return "action";
}

/**
 * Pairs each confirmation with the step it asks about; the rest (no step, or one not loaded yet) are loose
 * and show after the steps. Thoughts and notices never carry one.
 */
export function attachConfirmations(
  steps: readonly Step[],
  confirmations: readonly Confirmation[],
): { byStep: Map<Id, Confirmation[]>; loose: Confirmation[] } {
  const actionSteps = new Set(steps.filter((s) => stepStyle(s) === "action").map((s) => s.id));
  const byStep = new Map<Id, Confirmation[]>();
  const loose: Confirmation[] = [];
  for (const c of confirmations) {
    if (c.step !== null && actionSteps.has(c.step)) {
      const list = byStep.get(c.step);
      if (list) list.push(c);
      else byStep.set(c.step, [c]);
    } else {
      loose.push(c);
    }
  }
  return { byStep, loose };
}
