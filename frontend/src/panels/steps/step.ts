// One step in a run block: an action (arguments, observation, status, duration, screenshot and the
// confirmations it asked for), a thought, or a notice.

import type { Confirmation, RunStatus, Step } from "../../api/types";
import { h, icon, ICONS, KeyedList, setAttr, setText, type Component } from "../../dom";
import { STEP_STATUS_LABEL, labelFor, compactJson, formatDuration, truncate } from "../../format";
import { createConfirmationCard, type ConfirmationCardData } from "../confirmation";
import { openLightbox } from "../lightbox";
import { stepStyle, thoughtText, type RunActions } from "./model";
import { createExpandable, createObservation } from "./observation";

const THOUGHT_PREVIEW = 900;
const ARGUMENTS_PREVIEW = 160;

/** A step with the confirmations asked for it, and its run's status (a card of an ended run is over). */
export interface StepEntry {
  step: Step;
  confirmations: Confirmation[];
  runStatus: RunStatus;
}

function stepAttributes(el: HTMLElement, step: Step): void {
  setAttr(el, "data-status", step.status);
  setAttr(el, "data-action", step.action || step.kind);
  setAttr(el, "data-kind", step.kind);
  setAttr(el, "data-step-id", String(step.id));
}

/** The agent's reasoning: italic, open by default, collapsible to one line. */
function createThoughtStep(initial: StepEntry): Component<StepEntry> {
  const index = h("span", { class: "step-index" });
  const preview = h("span", { class: "thought-preview" });
  const body = createExpandable(THOUGHT_PREVIEW, "step-thought");
  const details = h(
    "details",
    { class: "thought", open: true },
    h("summary", null, index, h("span", { class: "thought-label" }, "Reasoning"), preview),
    body.el,
  );
  const el = h(
    "li",
    { class: "step step-thought-item", "data-testid": "step" },
    h("span", { class: "step-dot", "aria-hidden": "true" }),
    h("div", { class: "step-body" }, details),
  );
  const update = ({ step }: StepEntry): void => {
    stepAttributes(el, step);
    setText(index, String(step.index + 1));
    const text = step.status === "running" && !step.observation ? "Thinking…" : thoughtText(step);
    setText(preview, truncate(text.split("\n", 1)[0] ?? "", 100).text);
    body.update(text);
  };
  update(initial);
  return { el, update };
}

/** A notice: something the agent did without asking, said in one line. */
function createNoticeStep(initial: StepEntry): Component<StepEntry> {
  const text = h("span", { class: "step-notice-text" });
  const el = h(
    "li",
    { class: "step step-notice", "data-testid": "step", role: "note" },
    h("span", { class: "step-notice-icon", "aria-hidden": "true" }, icon(ICONS.info, 14)),
    h("div", { class: "step-body" }, text),
  );
  const update = ({ step }: StepEntry): void => {
    stepAttributes(el, step);
    setText(text, step.observation || step.error || thoughtText(step) || "Notice");
  };
  update(initial);
  return { el, update };
}

export function confirmationCards(container: HTMLElement, actions: RunActions | undefined): KeyedList<ConfirmationCardData> {
  return new KeyedList<ConfirmationCardData>(
    container,
    (d) => String(d.confirmation.id),
    (d) => createConfirmationCard(d, actions),
  );
}

function createActionStep(initial: StepEntry, actions: RunActions | undefined): Component<StepEntry> {
  const index = h("span", { class: "step-index" });
  const action = h("span", { class: "step-action" });
  const args = h("code", { class: "step-args" });
  const status = h("span", { class: "step-status" });
  const duration = h("span", { class: "step-duration" });
  const error = h("div", { class: "step-error" });
  const observation = createObservation();
  const confirmationsEl = h("div", { class: "step-confirmations" });
  const cards = confirmationCards(confirmationsEl, actions);
  const shot = h("img", {
    class: "step-shot",
    "data-testid": "step-screenshot",
    alt: "Screenshot after this step",
    loading: "lazy",
    tabindex: "0",
  });
  const openShot = (): void => openLightbox(shot.src, shot.alt);
  shot.addEventListener("click", openShot);
  shot.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    openShot();
  });
  const el = h(
    "li",
    { class: "step", "data-testid": "step" },
    h("span", { class: "step-dot", "aria-hidden": "true" }),
    h(
      "div",
      { class: "step-body" },
      h("div", { class: "step-head" }, index, action, args, h("span", { class: "step-spacer" }), status, duration),
      confirmationsEl,
      error,
      observation.el,
    ),
  );
  const update = ({ step, confirmations, runStatus }: StepEntry): void => {
    stepAttributes(el, step);
    const waiting = step.status === "running" && confirmations.some((c) => c.status === "pending");
    el.classList.toggle("step-waiting", waiting);
    setText(index, String(step.index + 1));
    setText(action, step.action || step.kind);
    const argsText = compactJson(step.arguments);
    setText(args, truncate(argsText, ARGUMENTS_PREVIEW).text);
    setAttr(args, "title", argsText || null);
    args.hidden = !argsText;
    setText(status, waiting ? "Waiting for you" : labelFor(STEP_STATUS_LABEL, step.status));
    status.className = `step-status status-${waiting ? "waiting" : step.status}`;
    setText(duration, step.status === "running" ? "" : formatDuration(step.duration_ms));
    cards.update(confirmations.map((confirmation) => ({ confirmation, runStatus })));
    confirmationsEl.hidden = confirmations.length === 0;
    error.hidden = !step.error;
    setText(error, step.error);
    observation.update(step.observation);
    // In the DOM only when there is one, so counting step-screenshot counts real screenshots.
    if (step.screenshot_url) {
      if (shot.getAttribute("src") !== step.screenshot_url) shot.src = step.screenshot_url;
      if (!shot.isConnected) el.appendChild(shot);
    } else {
      shot.remove();
    }
  };
  update(initial);
  return { el, update, destroy: () => cards.clear() };
}

export function createStep(initial: StepEntry, actions: RunActions | undefined): Component<StepEntry> {
  switch (stepStyle(initial.step)) {
    case "thought":
      return createThoughtStep(initial);
    case "notice":
      return createNoticeStep(initial);
    case "action":
      return createActionStep(initial, actions);
  }
}
