// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { Run } from "../api/types";
import { ConversationBar } from "./convbar";
import { createRunBlock } from "./steps";

const run = (extra: Partial<Run> = {}): Run => ({
  id: 8, conversation: 2, number: 1, status: "failed", error: "It broke.", prompt_tokens: 3, completion_tokens: 1,
  created_at: "", started_at: null, finished_at: null, kind: "turn", started_by: "ada", model_calls: 1, ...extra,
});

describe("a run's trace", () => {
  it("is a download link in the run's footer once the run kept one, and nothing before", () => {
    const block = createRunBlock({ run: run({ trace_url: null }), steps: [] });
    expect(block.el.querySelector('[data-testid="run-trace"]')).toBeNull();
    block.update({ run: run({ trace_url: "/api/runs/8/trace.zip" }), steps: [] });
    const link = block.el.querySelector<HTMLAnchorElement>('[data-testid="run-trace"]');
    expect(link?.getAttribute("href")).toBe("/api/runs/8/trace.zip");
    expect(link?.getAttribute("download")).toBe("trace.zip");
    expect(link?.closest("footer")).not.toBeNull();
  });

  it("is kept for every run when the conversation bar's switch is on", async () => {
    const patches: unknown[] = [];
    const bar = new ConversationBar({ onChange: async (patch) => void patches.push(patch) });
    const settings = { model_profile: null, show_reasoning: false, confirm_mode: "auto" as const, trace_runs: false };
    const models = { loaded: true, profiles: [], serverDefault: { model: "m" } };
    bar.update({ settings, models, disabled: false, hidden: false, draft: false } as never);
    const toggle = bar.el.querySelector<HTMLInputElement>('[data-testid="toggle-trace-runs"]');
    expect(toggle?.checked).toBe(false);
    toggle!.checked = true;
    toggle!.dispatchEvent(new Event("change"));
    await Promise.resolve();
    expect(patches).toEqual([{ trace_runs: true }]);
    bar.update({ settings: { ...settings, trace_runs: true }, models, disabled: false, hidden: false, draft: false } as never);
    expect(toggle?.checked).toBe(true);
  });
});
