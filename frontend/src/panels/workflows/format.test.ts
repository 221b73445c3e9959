import { describe, expect, it } from "vitest";
import type { Workflow } from "../api/types";
import { workflowRunLine, workflowSummary, workflowValues } from "./workflows";

const workflow: Workflow = {
  id: 1,
  name: "Join",
  description: "",
  created_at: "",
  updated_at: "",
  version: 2,
  parameters: [
    { name: "fullname", type: "string", default: "Ada", label: "Full name" },
    { name: "email", type: "string", default: "ada@example.com", label: "Email" },
  ],
  steps: [
    { action: "navigate", arguments: {}, intent: "", url: "" },
    { action: "type", arguments: {}, intent: "", url: "" },
  ],
  webhook_url: "",
  access: "owner",
  owner: "ada",
};

describe("workflowValues", () => {
  it("sends what was typed, and the defaults of the rest", () => {
    expect(workflowValues(workflow, new Map([["fullname", "Grace"]]))).toEqual({
      fullname: "Grace",
      email: "ada@example.com",
    });
  });
  it("keeps an emptied field empty", () => {
    expect(workflowValues(workflow, new Map([["email", ""]])).email).toBe("");
  });
});

describe("workflowSummary for a shared workflow", () => {
  it("says whose it is and what you may do", () => {
    expect(workflowSummary({ ...workflow, access: "controller" })).toBe(
      "2 steps · version 2 · shared by ada (you are a controller)",
    );
  });
});

describe("workflowSummary", () => {
  it("counts steps and shows a later version", () => {
    expect(workflowSummary(workflow)).toBe("2 steps · version 2");
    expect(workflowSummary({ ...workflow, version: 1, steps: workflow.steps.slice(0, 1) })).toBe("1 step");
  });
});

describe("workflowRunLine", () => {
  const run = {
    id: 1,
    conversation: 2,
    status: "succeeded" as const,
    error: "",
    version: 1,
    parameters: {},
    url: "",
    created_at: "2026-11-25T10:00:00Z",
    finished_at: null,
    prompt_tokens: 0,
  };
  it("says how it ended, and when", () => {
    expect(workflowRunLine(run, Date.parse("2026-11-25T10:00:30Z"))).toMatch(/^Succeeded · /);
  });
  it("says when the model healed a step", () => {
    expect(workflowRunLine({ ...run, prompt_tokens: 1200 })).toContain("healed (1200 tokens)");
  });
});
