// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { RecordingFrame, Run, RunRecording, Step } from "../../api/types";
import { createRunBlock } from "../steps";

const run = (extra: Partial<Run> = {}): Run => ({
  id: 8,
  conversation: 2,
  number: 1,
  status: "succeeded",
  error: "",
  prompt_tokens: 0,
  completion_tokens: 0,
  created_at: "",
  started_at: null,
  finished_at: null,
  kind: "turn",
  started_by: "ada",
  model_calls: 2,
  ...extra,
});
const step = (index: number): Step => ({
  id: 100 + index,
  run: 8,
  index,
  kind: "action",
  action: "click",
  arguments: {},
  observation: "ok",
  status: "succeeded",
  error: "",
  started_at: null,
  duration_ms: 5,
  screenshot_url: null,
});
const frame = (index: number, s: number | null): RecordingFrame => ({
  index,
  at_ms: 1_700_000_000_000 + index * 1000,
  source: "frame",
  width: 640,
  height: 400,
  step: s,
  step_id: s === null ? null : 100 + s,
  url: `/api/runs/8/recording/frames/${index}/`,
});
const RECORDING: RunRecording = {
  run: 8,
  bytes: 1000,
  truncated: false,
  frames: [frame(0, null), frame(1, 0), frame(2, 0), frame(3, 1), frame(4, 2)],
};

function block(status: Run["status"] = "succeeded", manual: string | null = null) {
  const asked: number[] = [];
  const actions = {
    answer: () => Promise.resolve(),
    openDebug: () => undefined,
    loadRecording: (id: number) => {
      asked.push(id);
      return Promise.resolve(RECORDING);
    },
  };
  const runBlock = createRunBlock({ run: run({ status }), steps: [step(0), step(1), step(2)], manual }, actions);
  document.body.replaceChildren(runBlock.el);
  return { el: runBlock.el, asked };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const watchButton = (el: HTMLElement) => el.querySelector<HTMLButtonElement>("[data-testid=run-watch]");
const current = (el: HTMLElement) => el.querySelector(".step-current")?.getAttribute("data-step-id");
const picture = (el: HTMLElement) =>
  el.querySelector<HTMLImageElement>("[data-testid=recording-frame]")?.getAttribute("src");

describe("Watch again", () => {
  it("is offered on a finished agent run, not while it runs nor for an action by hand", () => {
    expect(watchButton(block("succeeded").el)).not.toBeNull();
    expect(watchButton(block("failed").el)).not.toBeNull();
    expect(watchButton(block("running").el)).toBeNull();
    expect(watchButton(block("succeeded", "navigate").el)).toBeNull();
  });

  it("scrubbing shows the frame and highlights the step it belongs to", async () => {
    const { el, asked } = block();
    watchButton(el)?.click();
    await settle();
    expect(asked).toEqual([8]);
    expect(picture(el)).toBe("/api/runs/8/recording/frames/0/");
    expect(current(el)).toBeUndefined(); // before the first step
    const scrubber = el.querySelector<HTMLInputElement>("[data-testid=recording-scrubber]");
    if (!scrubber) throw new Error("no scrubber");
    scrubber.value = "3";
    scrubber.dispatchEvent(new Event("input"));
    expect(picture(el)).toBe("/api/runs/8/recording/frames/3/");
    expect(current(el)).toBe("101");
    expect(el.querySelector("[data-testid=recording-caption]")?.textContent).toBe("Step 2 · 0:03");
    expect(el.querySelectorAll(".recording-marker")).toHaveLength(3);
  });

  it("a click on a step in the list moves the recording there; closing clears the highlight", async () => {
    const { el } = block();
    watchButton(el)?.click();
    await settle();
    const third = el.querySelector<HTMLElement>('[data-step-id="102"]');
    third?.click();
    expect(picture(el)).toBe("/api/runs/8/recording/frames/4/");
    expect(current(el)).toBe("102");
    watchButton(el)?.click();
    expect(el.querySelector("[data-testid=recording]")).toBeNull();
    expect(current(el)).toBeUndefined();
  });
});
