// What a run block shows, worked out from the data: labels, durations, a thought's text, how a step is
// drawn, and which step each confirmation belongs to.

import type { Confirmation, Id, PlanStep, Run, Step } from "../../api/types";
import { compactJson } from "../../format";
import type { ConfirmationActions } from "../confirmation";

export interface RunItem {
  run: Run;
  steps: Step[];
  /** The action of a run started by hand ("navigate"); null or absent for the agent's turns. */
  manual?: string | null;
  confirmations?: Confirmation[];
  plan?: PlanStep[];
}

/** What the run blocks can ask of the page: answer a confirmation, open a run's model calls. */
export interface RunActions extends ConfirmationActions {
  openDebug(runId: Id): void;
  /** Saves a run that worked as a workflow; resolves to what to tell the user. */
  saveWorkflow?(runId: Id): Promise<string>;
}
/** "Agent run", or "You: navigate" for an action run by hand from the address bar or the tabs. */
export function runLabel(manual: string | null | undefined, kind?: Run["kind"]): string {
  if (kind === "workflow") return "Workflow replay";
  return manual ? `You: ${manual}` : "Agent run";
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
