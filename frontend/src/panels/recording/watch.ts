// "Watch again" on a finished run's block: a footer button that loads the run's recording and opens the player
// above the footer; while it is open, the step it shows is highlighted in the step list, and a click on a step
// moves the player there.

import type { Id, Run } from "../../api/types";
import { h, setText } from "../../dom";
import { isTerminalStatus } from "../../reducer";
import type { RunActions } from "../steps/model";
import { createRecordingPlayer, type RecordingPlayer } from "./player";

const CURRENT = "step-current";

export interface WatchAgain {
  /** The footer's button, offered for a finished agent run or replay. */
  button: HTMLButtonElement;
  /** Where the player opens; the run block places it above its footer. */
  el: HTMLElement;
  offered(run: Run, manual: string | null | undefined): boolean;
  destroy(): void;
}

export function createWatchAgain(
  runId: () => Id,
  stepsEl: HTMLElement,
  source: Pick<RunActions, "loadRecording"> | undefined,
): WatchAgain {
  const button = h(
    "button",
    {
      class: "link-button run-watch",
      type: "button",
      "data-testid": "run-watch",
    },
    "Watch again",
  );
  const el = h("div", { class: "run-recording" });
  const message = h("p", { class: "recording-message", role: "status" });
  let player: RecordingPlayer | null = null;

  const highlight = (stepId: Id | null): void => {
    for (const item of stepsEl.querySelectorAll(`.${CURRENT}`)) item.classList.remove(CURRENT);
    if (stepId === null) return;
    const item = stepsEl.querySelector(`[data-step-id="${stepId}"]`);
    item?.classList.add(CURRENT);
  };
  const close = (): void => {
    player?.destroy();
    player = null;
    el.replaceChildren();
    highlight(null);
    delete stepsEl.dataset.watching;
    setText(button, "Watch again");
  };
  button.addEventListener("click", () => {
    if (player || el.firstChild) {
      close();
      return;
    }
    if (!source?.loadRecording) return;
    button.disabled = true;
    setText(message, "Loading the recording…");
    el.replaceChildren(message);
    void source
      .loadRecording(runId())
      .then((recording) => {
        player = createRecordingPlayer(recording, highlight);
        el.replaceChildren(player.el);
        stepsEl.dataset.watching = ""; // steps can be clicked to move the recording there
        setText(button, "Close the recording");
      })
      .catch(() => {
        setText(message, "This run has no recording (it was not recorded, or it was removed after its retention).");
        setText(button, "Close");
      })
      .finally(() => (button.disabled = false));
  });
  // A click on a step (not on its own buttons and links) moves the open player to that step.
  stepsEl.addEventListener("click", (event) => {
    const target = event.target as Element | null;
    if (!player || !target || target.closest("button, a, summary, input")) return;
    const item = target.closest<HTMLElement>("[data-step-id]");
    const index = Number(item?.querySelector(".step-index")?.textContent ?? "0") - 1;
    if (item?.dataset.stepId) player.seekStep(Number(item.dataset.stepId), index);
  });
  return {
    button,
    el,
    offered: (run, manual) => !!source?.loadRecording && !manual && isTerminalStatus(run.status),
    destroy: close,
  };
}
