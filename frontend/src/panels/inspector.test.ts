import { describe, expect, it } from "vitest";
import type { ConversationSkill, Run, Step, WebTool } from "../api/types";
import { annotationsOf, callOutcome, skillRows, sourceLabel } from "./inspector/model";

function run(status: Run["status"], extra: Partial<Run> = {}): Run {
  return {
    id: 9,
    conversation: 1,
    status,
    error: "",
    prompt_tokens: 0,
    completion_tokens: 0,
    created_at: "2025-01-01T12:00:00Z",
    started_at: null,
    finished_at: null,
    kind: "action",
    ...extra,
  };
}

function step(status: Step["status"], extra: Partial<Step> = {}): Step {
  return {
    id: 30,
    run: 9,
    index: 0,
    kind: "action",
    action: "searchFlights",
    arguments: { from: "PEK" },
    observation: "",
    status,
    error: "",
    started_at: null,
    duration_ms: null,
    screenshot_url: null,
    ...extra,
  };
}

function skill(id: number, name: string, enabled_here = true): ConversationSkill {
  return { id, name, version: "1.0.0", description: "", match_patterns: [], priority: 0, tools: [], enabled_here };
}

describe("tool rows", () => {
  it("reads the annotations however the server spells them", () => {
    expect(annotationsOf({ annotations: { readOnlyHint: true, untrustedContentHint: true } })).toEqual({
      readOnly: true,
      untrusted: true,
      consequential: false,
    });
    expect(annotationsOf({ annotations: { consequential_hint: true } as WebTool["annotations"] }).consequential).toBe(true);
    expect(annotationsOf({ annotations: null })).toEqual({ readOnly: false, untrusted: false, consequential: false });
  });

  it("names where a tool comes from", () => {
    expect(sourceLabel({ source: "page", skill: null })).toBe("page");
    expect(sourceLabel({ source: "skill", skill: "demo-shop" })).toBe("SKILL demo-shop");
  });
});

describe("a call by hand", () => {
  it("is running until its step ends", () => {
    expect(callOutcome(run("queued"), []).status).toBe("running");
    expect(callOutcome(run("running"), [step("running")]).status).toBe("running");
  });

  it("shows the step's observation as the result, as pretty JSON when it is JSON, and the page after it", () => {
    const done = step("succeeded", { observation: '{"shown":2}', screenshot_url: "/api/steps/30/screenshot/" });
    expect(callOutcome(run("succeeded"), [done])).toEqual({
      status: "succeeded",
      text: '{\n  "shown": 2\n}',
      json: true,
      screenshot: "/api/steps/30/screenshot/",
    });
    expect(callOutcome(run("succeeded"), [step("succeeded", { observation: "Added to the cart." })]).text).toBe("Added to the cart.");
  });

  it("shows the tool's error when the step failed, or the run's when it failed before its step", () => {
    const failed = step("failed", { error: '"from" must be a 3-letter IATA airport code', screenshot_url: "/s.jpg" });
    expect(callOutcome(run("failed"), [failed])).toEqual({
      status: "failed",
      text: '"from" must be a 3-letter IATA airport code',
      json: false,
      screenshot: "/s.jpg",
    });
    expect(callOutcome(run("failed", { error: "No tool named nope on this page." }), [])).toMatchObject({
      status: "failed",
      text: "No tool named nope on this page.",
    });
    expect(callOutcome(run("aborted"), []).text).toBe("The call was stopped.");
  });
});

describe("SKILLs in the inspector", () => {
  it("lists the page's SKILLs with their health first, then the rest of the library with its switches", () => {
    const rows = skillRows(
      [
        { name: "demo-shop", version: "1.0.0", status: "failed", error: "missing #cart" },
        { name: "unlisted", version: "2", status: "ok", error: "" },
      ],
      [skill(1, "wiki-helper", false), skill(2, "demo-shop")],
    );
    expect(rows.map((r) => [r.name, r.status?.status ?? null, r.skill?.id ?? null])).toEqual([
      ["demo-shop", "failed", 2],
      ["unlisted", "ok", null],
      ["wiki-helper", null, 1],
    ]);
  });
});
