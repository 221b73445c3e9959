import { describe, expect, it } from "vitest";
import { runLabel } from "./steps/model";

describe("runLabel", () => {
  it("names a run by who started it", () => {
    expect(runLabel(null)).toBe("Agent run");
    expect(runLabel(undefined)).toBe("Agent run");
    expect(runLabel("navigate")).toBe("You: navigate");
  });
});

describe("runLabel for a workflow", () => {
  it("names a replay as such", () => {
    expect(runLabel(null, "workflow")).toBe("Workflow replay");
    expect(runLabel(null, "turn")).toBe("Agent run");
  });
});
