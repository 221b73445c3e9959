// What the Tool Inspector shows, worked out from the data: a tool's hints and source, the outcome of a
// call by hand, and the SKILL rows (those on the page and those of the library).

import type { ConversationSkill, Run, SkillStatus, Step, WebTool } from "../../api/types";
import { isTerminalStatus } from "../../reducer";
import { prettyResult } from "../../schemaargs";

export interface ToolHints {
  readOnly: boolean;
  untrusted: boolean;
  consequential: boolean;
}

/** The tool's annotations, whether the server spells them readOnlyHint or read_only_hint. */
export function annotationsOf(tool: Pick<WebTool, "annotations">): ToolHints {
  const a = (tool.annotations ?? {}) as Record<string, unknown>;
  return {
    readOnly: a.readOnlyHint === true || a.read_only_hint === true,
    untrusted: a.untrustedContentHint === true || a.untrusted_content_hint === true,
    consequential: a.consequentialHint === true || a.consequential_hint === true,
  };
}

/** "page", or "SKILL demo-shop". */
export function sourceLabel(tool: Pick<WebTool, "source" | "skill">): string {
  return tool.source === "skill" ? `SKILL ${tool.skill ?? ""}`.trim() : "page";
}

export interface CallOutcome {
  status: "running" | "succeeded" | "failed";
  /** The result (pretty JSON when it is JSON), or the error. */
  text: string;
  json: boolean;
  screenshot: string | null;
}

/**
 * How a call by hand went, from its run and the run's step: the step's observation is the result; a failed
 * step (or a run that failed before its step) is an error.
 */
export function callOutcome(run: Run | undefined, steps: readonly Step[]): CallOutcome {
  const step = [...steps].reverse().find((s) => s.kind === "action") ?? steps[steps.length - 1];
  const runOver = !!run && isTerminalStatus(run.status);
  const runFailed = !!run && (run.status === "failed" || run.status === "aborted");
  if (step && step.status !== "running") {
    if (step.status === "failed") {
      const text = step.error || step.observation || run?.error || "The tool failed.";
      return { status: "failed", text, json: false, screenshot: step.screenshot_url };
    }
    const shown = prettyResult(step.observation);
    return { status: "succeeded", ...shown, screenshot: step.screenshot_url };
  }
  if (runOver) {
    if (runFailed) {
      const text = run.error || (run.status === "aborted" ? "The call was stopped." : "The call failed.");
      return { status: "failed", text, json: false, screenshot: step?.screenshot_url ?? null };
    }
    return { status: "succeeded", text: step?.observation ?? "", json: false, screenshot: step?.screenshot_url ?? null };
  }
  return { status: "running", text: "", json: false, screenshot: null };
}

export interface SkillRow {
  name: string;
  /** The health on this page; null for a SKILL that does not match it. */
  status: SkillStatus | null;
  /** This conversation's switch; null when the library did not list it. */
  skill: ConversationSkill | null;
}

/** The SKILLs matching the page (with their health) first, then the rest of the library. */
export function skillRows(statuses: readonly SkillStatus[], library: readonly ConversationSkill[]): SkillRow[] {
  const byName = new Map(library.map((s) => [s.name, s]));
  const matching = statuses.map((status) => ({ name: status.name, status, skill: byName.get(status.name) ?? null }));
  const named = new Set(statuses.map((s) => s.name));
  const others = library.filter((s) => !named.has(s.name)).map((skill) => ({ name: skill.name, status: null, skill }));
  return [...matching, ...others];
}
