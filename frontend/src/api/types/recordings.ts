// A finished run's recording: pictures of its browser during and between steps, to be watched again.

import type { Id } from "./id";

export interface RecordingFrame {
  index: number;
  /** When it was captured, ms since the epoch. */
  at_ms: number;
  /** "frame": recorded during and between steps; "step": the step's own picture as it ended. */
  source: "frame" | "step";
  /** 0 when not known (a step's picture). */
  width: number;
  height: number;
  /** The index of the step it shows (the last one started by then); null before the first step. */
  step: number | null;
  step_id: Id | null;
  /** The JPEG, authorization-checked like the run's steps. */
  url: string;
}

export interface RunRecording {
  run: Id;
  bytes: number;
  /** Frames past the size bound were left out. */
  truncated: boolean;
  frames: RecordingFrame[];
}
