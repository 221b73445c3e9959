// A recording's timeline: where each step starts on it, which frame shows a step, and how far into the run a frame
// is. Pure, so the player stays a thin layer of DOM.

import type { Id, RecordingFrame } from "../../api/types";

/** Where a step's first frame sits on the timeline: `at` from 0 (the first frame) to 1 (the last). */
export interface StepMarker {
  stepId: Id;
  step: number;
  frame: number;
  at: number;
}

/** The position (0-1) of frame `n` on a timeline of `count` frames. */
export function positionOf(n: number, count: number): number {
  return count > 1 ? n / (count - 1) : 0;
}

/** One marker per step that has frames, at its first frame, in the order they were captured. */
export function stepMarkers(frames: readonly RecordingFrame[]): StepMarker[] {
  const markers: StepMarker[] = [];
  let last: Id | null = null;
  frames.forEach((frame, n) => {
    if (frame.step_id === null || frame.step === null || frame.step_id === last) return;
    last = frame.step_id;
    if (markers.some((m) => m.stepId === frame.step_id)) return;
    markers.push({
      stepId: frame.step_id,
      step: frame.step,
      frame: n,
      at: positionOf(n, frames.length),
    });
  });
  return markers;
}

/**
 * The frame to show for a step: its first frame; for a step that has none (it took less than a frame's interval),
 * the last frame before the next step that has one, so the picture is the page as that step left it.
 */
export function frameForStep(frames: readonly RecordingFrame[], stepId: Id, stepIndex: number): number | null {
  const first = frames.findIndex((f) => f.step_id === stepId);
  if (first >= 0) return first;
  let before: number | null = null;
  frames.forEach((f, n) => {
    if (f.step !== null && f.step <= stepIndex) before = n;
  });
  return before;
}

/** "0:07" — how long after the first frame frame `n` was captured. */
export function elapsedLabel(frames: readonly RecordingFrame[], n: number): string {
  const first = frames[0];
  const frame = frames[n];
  if (!first || !frame) return "0:00";
  const seconds = Math.max(0, Math.round((frame.at_ms - first.at_ms) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What the player says under the picture: "Step 7 · 0:12", "Step 7 as it ended · 0:13" (the step's own picture),
 * or "Before the first step · 0:00".
 */
export function frameCaption(frames: readonly RecordingFrame[], n: number): string {
  const frame = frames[n];
  const step = frame?.step == null ? "Before the first step" : `Step ${frame.step + 1}`;
  const where = frame?.source === "step" ? `${step} as it ended` : step;
  return `${where} · ${elapsedLabel(frames, n)}`;
}
