// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { Step } from "../../api/types";
import { createStep } from "./step";

function detailsStep(value: string): Step {
  const observation = JSON.stringify({
    ok: true,
    action: "get_element_details",
    data: { elements: [{ index: 3, tag: "textarea", text: "Source", value, value_part: "characters 1–10000 of 50000" }] },
  });
  return {
    id: 7, run: 2, index: 0, kind: "action", action: "get_element_details", arguments: { indices: [3] },
    observation, status: "succeeded", error: "", started_at: null, duration_ms: 12, screenshot_url: null,
  };
}

describe("an element's details in the step timeline", () => {
  it("shows a long field value whole once expanded, not only its start", () => {
    const value = "x".repeat(9_990) + "the end";
    const step = createStep({ step: detailsStep(value), confirmations: [], runStatus: "succeeded" }, undefined);
    const shown = () => step.el.querySelector(".obs-text")?.textContent ?? "";
    expect(shown()).not.toContain("the end");
    const more = [...step.el.querySelectorAll("button")].find((b) => b.textContent.startsWith("Show more"));
    expect(more).toBeDefined();
    more?.click();
    const read = JSON.parse(shown()) as { data: { elements: { value: string }[] } };
    expect(read.data.elements[0]?.value).toBe(value);
  });
});
