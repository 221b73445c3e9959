// The "Watch again" player: a finished run's recording as a picture, a scrubber with a marker where each step
// starts, and play/pause. It tells its owner which step the shown frame belongs to (to highlight it in the step
// list) and can be moved to a step (a click on it in the step list).

import type { Id, RunRecording } from "../../api/types";
import { h, setText } from "../../dom";
import { frameCaption, frameForStep, stepMarkers } from "./timeline";

/** Frames shown per second while playing (the recording keeps about one a second). */
const PLAY_FPS = 2;

export interface RecordingPlayer {
  el: HTMLElement;
  /** Show frame `n` (clamped to the recording). */
  show(n: number): void;
  /** Move to the step with this id (its index as the step list numbers it from 0). */
  seekStep(stepId: Id, stepIndex: number): void;
  readonly frame: number;
  destroy(): void;
}

export function createRecordingPlayer(recording: RunRecording, onStep: (stepId: Id | null) => void): RecordingPlayer {
  const { frames } = recording;
  const picture = h("img", {
    class: "recording-frame",
    alt: "The run's browser",
    "data-testid": "recording-frame",
  });
  const scrubber = h("input", {
    class: "recording-scrubber",
    type: "range",
    min: "0",
    max: String(Math.max(0, frames.length - 1)),
    step: "1",
    value: "0",
    "aria-label": "Position in the recording",
    "data-testid": "recording-scrubber",
  });
  const markers = h(
    "div",
    { class: "recording-markers", "aria-hidden": "true" },
    ...stepMarkers(frames).map((m) => {
      const marker = h("span", {
        class: "recording-marker",
        title: `Step ${m.step + 1}`,
        "data-step-id": String(m.stepId),
      });
      marker.style.left = `${(m.at * 100).toFixed(2)}%`; // through the CSSOM: the CSP refuses style attributes
      return marker;
    }),
  );
  const caption = h("span", {
    class: "recording-caption",
    "data-testid": "recording-caption",
  });
  const play = h("button", { class: "link-button recording-play", type: "button" }, "Play");
  const note = recording.truncated
    ? h("span", { class: "recording-note" }, "The recording was cut at its size limit.")
    : "";
  const el = h(
    "div",
    { class: "recording", "data-testid": "recording" },
    frames.length ? picture : h("p", { class: "recording-empty" }, "Nothing was recorded for this run."),
    h("div", { class: "recording-track" }, scrubber, markers),
    h("div", { class: "recording-controls" }, play, caption, note),
  );
  let current = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const show = (n: number): void => {
    const next = Math.min(Math.max(0, Math.round(n)), frames.length - 1);
    const frame = frames[next];
    if (!frame || next === current) return;
    const step = frames[current]?.step_id;
    current = next;
    picture.src = frame.url;
    if (frame.width && frame.height) {
      picture.width = frame.width;
      picture.height = frame.height;
    }
    scrubber.value = String(next);
    setText(caption, frameCaption(frames, next));
    if (frame.step_id !== step) onStep(frame.step_id);
  };
  const stop = (): void => {
    clearTimeout(timer);
    timer = undefined;
    setText(play, "Play");
  };
  const tick = (): void => {
    if (current >= frames.length - 1) {
      stop();
      return;
    }
    show(current + 1);
    timer = setTimeout(tick, 1000 / PLAY_FPS);
  };
  scrubber.addEventListener("input", () => {
    stop();
    show(Number(scrubber.value));
  });
  play.addEventListener("click", () => {
    if (timer !== undefined) {
      stop();
      return;
    }
    if (current >= frames.length - 1) show(0);
    setText(play, "Pause");
    timer = setTimeout(tick, 1000 / PLAY_FPS);
  });
  show(0);
  return {
    el,
    show,
    seekStep(stepId, stepIndex) {
      stop();
      const n = frameForStep(frames, stepId, stepIndex);
      if (n !== null) show(n);
    },
    get frame() {
      return current;
    },
    destroy: stop,
  };
}
