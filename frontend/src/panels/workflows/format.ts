// What the Workflows section says about a workflow, a replay, a version and a schedule: pure, unit-tested.

import type { Workflow, WorkflowRun, WorkflowSchedule, WorkflowVersion } from "../../api/types";
import { relativeTime } from "../../format";

/** The values to send: every parameter, as typed (an emptied field sends an empty value, not the default). */
export function workflowValues(workflow: Workflow, typed: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(workflow.parameters.map((p) => [p.name, typed.get(p.name) ?? p.default]));
}

/** "3 steps · version 2", and whose it is when it was shared with you. */
export function workflowSummary(workflow: Workflow): string {
  const steps = `${workflow.steps.length} step${workflow.steps.length === 1 ? "" : "s"}`;
  const version = workflow.version && workflow.version > 1 ? ` · version ${workflow.version}` : "";
  const shared = workflow.access === "owner" ? "" : ` · shared by ${workflow.owner} (you are a ${workflow.access})`;
  return `${steps}${version}${shared}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Succeeded · 2 minutes ago · version 2", and the model's part when a step had to be healed. */
export function workflowRunLine(run: WorkflowRun, now = Date.now()): string {
  const version = run.version ? ` · version ${run.version}` : "";
  const healed = run.prompt_tokens > 0 ? ` · healed (${run.prompt_tokens} tokens)` : "";
  return `${capitalized(run.status)} · ${relativeTime(run.created_at, now)}${version}${healed}`;
}

/** Outputs longer than this (lines of pretty-printed JSON) are folded away under a summary. */
const OUTPUT_LINES_SHOWN = 8;

export interface OutputsView {
  /** Pretty-printed JSON of every output. */
  text: string;
  /** Long enough to fold into a <details>. */
  long: boolean;
  /** "Extracted: title, price". */
  summary: string;
}

/** What a replay extracted, for showing; null when it extracted nothing. */
export function outputsView(outputs: Record<string, unknown> | undefined): OutputsView | null {
  const names = Object.keys(outputs ?? {});
  if (!outputs || names.length === 0) return null;
  const text = JSON.stringify(outputs, null, 2);
  return { text, long: text.split("\n").length > OUTPUT_LINES_SHOWN, summary: `Extracted: ${names.join(", ")}` };
}

/** How a line of a unified diff reads: a step added or removed, a hunk or file header, or context. */
export function diffLineKind(line: string): "added" | "removed" | "header" | "context" {
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("@@")) return "header";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return "context";
}

/** "Version 2 · Edited: renamed fullname to name · 5 minutes ago". */
export function versionLine(version: WorkflowVersion, now = Date.now()): string {
  const note = version.note ? ` · ${version.note}` : "";
  return `Version ${version.number}${note} · ${relativeTime(version.created_at, now)}`;
}

/** "email=ops@example.com, plan=gold", or "default values"; in the order of `names` (the workflow's parameters)
 * when given, since a JSON object's keys come back in the database's order (PostgreSQL sorts them). */
export function parametersText(parameters: Record<string, string>, names: readonly string[] = []): string {
  const rank = (name: string): number => (names.includes(name) ? names.indexOf(name) : names.length);
  const entries = Object.entries(parameters).sort(([a], [b]) => rank(a) - rank(b));
  return entries.length ? entries.map(([name, value]) => `${name}=${value}`).join(", ") : "default values";
}

/** "Europe/Paris · email=ops@example.com · waits for your yes · last run 2 hours ago". */
export function scheduleLine(schedule: WorkflowSchedule, now = Date.now(), names: readonly string[] = []): string {
  const confirmations = schedule.confirmations === "refuse" ? "stops at a step that needs a yes" : "waits for your yes";
  const last = schedule.last_run ? `last run ${relativeTime(schedule.last_run, now)}` : "not run yet";
  return `${schedule.timezone} · ${parametersText(schedule.parameters, names)} · ${confirmations} · ${last}`;
}

/** The browser's time zone ("Europe/Paris"), the default for a new schedule; UTC when it cannot say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
