import { describe, expect, it } from "vitest";
import type { RecordingFrame } from "../../api/types";
import { frameCaption, frameForStep, positionOf, stepMarkers } from "./timeline";

const frame = (index: number, seconds: number, step: number | null): RecordingFrame => ({
  index,
  at_ms: 1_700_000_000_000 + seconds * 1000,
  source: "frame",
  width: 1280,
  height: 800,
  step,
  step_id: step === null ? null : 100 + step,
  url: `/api/runs/1/recording/frames/${index}/`,
});

// Before the first step, step 0 over two frames, step 1 (no frame of its own: too quick), step 2, step 3.
const FRAMES = [frame(0, 0, null), frame(1, 1, 0), frame(2, 2, 0), frame(3, 3, 2), frame(4, 64, 3)];

describe("a recording's timeline", () => {
  it("puts a marker where each step's first frame is", () => {
    expect(stepMarkers(FRAMES)).toEqual([
      { stepId: 100, step: 0, frame: 1, at: 0.25 },
      { stepId: 102, step: 2, frame: 3, at: 0.75 },
      { stepId: 103, step: 3, frame: 4, at: 1 },
    ]);
    expect(positionOf(0, 1)).toBe(0);
  });

  it("shows a step at its first frame, and a step without frames as the page it left", () => {
    expect(frameForStep(FRAMES, 102, 2)).toBe(3);
    expect(frameForStep(FRAMES, 101, 1)).toBe(2); // the last frame of step 0: nothing changed before step 2
    expect(frameForStep([frame(0, 0, null)], 100, 0)).toBeNull();
  });

  it("says which step a frame shows, numbered as the step list numbers them, and when", () => {
    expect(frameCaption(FRAMES, 0)).toBe("Before the first step · 0:00");
    expect(frameCaption(FRAMES, 3)).toBe("Step 3 · 0:03");
    expect(frameCaption(FRAMES, 4)).toBe("Step 4 · 1:04");
    expect(frameCaption([{ ...frame(0, 0, 2), source: "step" }], 0)).toBe("Step 3 as it ended · 0:00");
  });
});
