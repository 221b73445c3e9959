import { describe, expect, it } from "vitest";
import type { Workflow } from "../../api/types";
import {
  diffLineKind,
  outputsView,
  parametersText,
  scheduleLine,
  versionLine,
  workflowRunLine,
  workflowSummary,
  workflowValues,
} from "./format";

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
    outputs: {},
  };
  it("says how it ended, when, and which version ran", () => {
    expect(workflowRunLine(run, Date.parse("2026-11-25T10:00:30Z"))).toBe("Succeeded · just now · version 1");
  });
  it("says when the model healed a step", () => {
    expect(workflowRunLine({ ...run, prompt_tokens: 1200 })).toContain("healed (1200 tokens)");
  });
});

describe("outputsView", () => {
  it("shows nothing when the replay extracted nothing", () => {
    expect(outputsView({})).toBeNull();
    expect(outputsView(undefined)).toBeNull();
  });
  it("pretty-prints a short output in full", () => {
    expect(outputsView({ order: "A-17" })).toEqual({
      text: '{\n  "order": "A-17"\n}',
      long: false,
      summary: "Extracted: order",
    });
  });
  it("folds a long output away", () => {
    const view = outputsView({ items: ["a", "b", "c", "d", "e", "f", "g"], total: 7 });
    expect(view?.long).toBe(true);
    expect(view?.summary).toBe("Extracted: items, total");
  });
});

describe("diffLineKind", () => {
  it("tells added and removed steps from headers and context", () => {
    expect(["--- v1", "+++ v2", "@@ -1,2 +1,2 @@", "+type: the name", "-click: submit", " navigate: open"].map(diffLineKind)).toEqual(
      ["header", "header", "header", "added", "removed", "context"],
    );
  });
});

describe("versionLine", () => {
  it("gives the number, the note and when", () => {
    const version = { number: 2, note: "Edited: renamed fullname to name", created_at: "2026-11-25T10:00:00Z", source_run: null, steps: 3, changes: [] };
    expect(versionLine(version, Date.parse("2026-11-25T10:00:10Z"))).toBe("Version 2 · Edited: renamed fullname to name · just now");
  });
});

describe("scheduleLine", () => {
  const schedule = {
    id: 1,
    cron: "30 9 * * 1-5",
    timezone: "Europe/Paris",
    parameters: { email: "ops@example.com" },
    confirmations: "wait" as const,
    profile: null,
    profile_mode: "read-write" as const,
    last_run: null,
    created_at: "",
  };
  it("says where, with what, what a step that needs a yes does, and that it has not run", () => {
    expect(scheduleLine(schedule)).toBe("Europe/Paris · email=ops@example.com · waits for your yes · not run yet");
  });
  it("says when it last ran and that it stops rather than waits", () => {
    const line = scheduleLine(
      { ...schedule, parameters: {}, confirmations: "refuse", last_run: "2026-11-25T08:00:00Z" },
      Date.parse("2026-11-25T10:00:00Z"),
    );
    expect(line).toBe("Europe/Paris · default values · stops at a step that needs a yes · last run 2 h ago");
  });
});

describe("parametersText", () => {
  it("lists name=value pairs", () => {
    expect(parametersText({ a: "1", b: "" })).toBe("a=1, b=");
  });
  it("lists them in the workflow's order, whatever order the server's JSON has", () => {
    const fromServer = { email: "ops@example.com", plan: "gold", fullname: "Ada" };
    expect(parametersText(fromServer, ["fullname", "email"])).toBe("fullname=Ada, email=ops@example.com, plan=gold");
  });
});
