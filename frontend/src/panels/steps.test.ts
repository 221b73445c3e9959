import { describe, expect, it } from "vitest";
import type { Run } from "../api/types";
import { runLabel, runNumberLabel, runOffers, runStarter } from "./steps/model";

const run = (extra: Partial<Run> = {}): Run => ({
  id: 8, conversation: 2, number: 1, status: "succeeded", error: "", prompt_tokens: 0, completion_tokens: 0,
  created_at: "", started_at: null, finished_at: null, kind: "turn", started_by: "ada", model_calls: 2, ...extra,
});

describe("runLabel", () => {
  it("names an action by hand after who ran it, as the reader sees it", () => {
    expect(runLabel(null)).toBe("Agent run");
    expect(runLabel(undefined)).toBe("Agent run");
    expect(runLabel("navigate", "action", "ada", "ada")).toBe("You: navigate");
    // The owner's action on a teammate's page names the owner, not "You".
    expect(runLabel("navigate", "action", "ada", "bob")).toBe("ada: navigate");
    expect(runLabel("navigate", "action", null, "bob")).toBe("By hand: navigate");
  });

  it("names a replay as such", () => {
    expect(runLabel(null, "workflow", "ada", "ada")).toBe("Workflow replay");
    expect(runLabel(null, "turn")).toBe("Agent run");
  });
});

describe("run numbers and starters", () => {
  it("numbers a run within its conversation, whatever its id", () => {
    expect(runNumberLabel(run({ id: 8, number: 1 }))).toBe("Run 1");
    expect(runNumberLabel(run({ number: undefined }))).toBe("");
  });

  it("shows who started a run only where no message of theirs stands above it", () => {
    expect(runStarter(run(), null)).toBeNull();
    expect(runStarter(run({ kind: "action", started_by: "bob" }), "navigate")).toBe("bob");
    expect(runStarter(run({ kind: "workflow", started_by: "bob" }), null)).toBe("bob");
  });
});

describe("runOffers", () => {
  it("offers what the model saw only to the owner, and only where the model was called", () => {
    expect(runOffers(run(), null, true)).toEqual({ debug: true, save: true });
    expect(runOffers(run(), null, false)).toEqual({ debug: false, save: false });
    expect(runOffers(run({ model_calls: 0 }), null, true).debug).toBe(false);
    expect(runOffers(run({ kind: "action", model_calls: 0 }), "navigate", true)).toEqual({ debug: false, save: false });
  });

  it("offers saving as a workflow only for an agent's turn that succeeded", () => {
    expect(runOffers(run({ status: "failed" }), null, true).save).toBe(false);
    expect(runOffers(run({ kind: "workflow" }), null, true)).toEqual({ debug: true, save: false });
  });
});
