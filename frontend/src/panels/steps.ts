// Step timeline: one block per run with its steps (action, arguments, observation, status, duration,
// screenshot) and, for a failed run, its error.

import type { Run, Step } from "../api/types";
import { h, icon, ICONS, KeyedList, replaceChildren, setAttr, setText, type Component } from "../dom";
import { RUN_STATUS_LABEL, STEP_STATUS_LABEL, compactJson, formatDuration, formatTokens, truncate } from "../format";
import { isActiveStatus } from "../reducer";

const OBSERVATION_PREVIEW = 1200;
const ARGUMENTS_PREVIEW = 160;

export interface RunItem {
  run: Run;
  steps: Step[];
  /** The action of a run started by hand ("navigate"); null or absent for the agent's turns. */
  manual?: string | null;
}

/** "Agent run", or "You: navigate" for an action run by hand from the address bar or the tabs. */
export function runLabel(manual: string | null | undefined): string {
  return manual ? `You: ${manual}` : "Agent run";
}

export function runDurationMs(run: Run): number | null {
  if (!run.started_at || !run.finished_at) return null;
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function thoughtText(step: Step): string {
  if (step.observation) return step.observation;
  const args = step.arguments;
  if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    for (const key of ["thought", "text", "content"]) if (typeof record[key] === "string") return record[key];
  }
  return compactJson(args);
}

/** A collapsible, monospace observation that shows the first part and can show the rest. */
function createObservation(): { el: HTMLDetailsElement; update(text: string): void } {
  const preview = h("span", { class: "obs-preview" });
  const pre = h("pre", { class: "obs-text" });
  const more = h("button", { class: "link-button", type: "button" });
  let full = "";
  let expanded = false;
  const render = (): void => {
    const cut = truncate(full, OBSERVATION_PREVIEW);
    setText(pre, expanded ? full : cut.text);
    more.hidden = !cut.cut;
    setText(more, expanded ? "Show less" : `Show more (${full.length.toLocaleString("en-US")} characters)`);
  };
  more.addEventListener("click", () => {
    expanded = !expanded;
    render();
  });
  const el = h(
    "details",
    { class: "step-obs" },
    h("summary", null, h("span", { class: "obs-label" }, "Observation"), preview),
    pre,
    more,
  );
  return {
    el,
    update(text: string): void {
      el.hidden = !text;
      if (text === full) return;
      full = text;
      setText(preview, truncate(text.split("\n", 1)[0] ?? "", 90).text);
      render();
    },
  };
}

function createStep(initial: Step): Component<Step> {
  const index = h("span", { class: "step-index" });
  const action = h("span", { class: "step-action" });
  const args = h("code", { class: "step-args" });
  const status = h("span", { class: "step-status" });
  const duration = h("span", { class: "step-duration" });
  const thought = h("p", { class: "step-thought" });
  const error = h("div", { class: "step-error" });
  const observation = createObservation();
  const shot = h("img", {
    class: "step-shot",
    "data-testid": "step-screenshot",
    alt: "Screenshot after this step",
    loading: "lazy",
    tabindex: "0",
  });
  const openShot = (): void => openLightbox(shot.src, shot.alt);
  shot.addEventListener("click", openShot);
  shot.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), openShot()));
  const el = h(
    "li",
    { class: "step", "data-testid": "step" },
    h("span", { class: "step-dot", "aria-hidden": "true" }),
    h(
      "div",
      { class: "step-body" },
      h("div", { class: "step-head" }, index, action, args, h("span", { class: "step-spacer" }), status, duration),
      thought,
      error,
      observation.el,
    ),
  );
  const update = (step: Step): void => {
    const isThought = step.kind === "thought";
    setAttr(el, "data-status", step.status);
    setAttr(el, "data-action", step.action || step.kind);
    setAttr(el, "data-kind", step.kind);
    setAttr(el, "data-step-id", String(step.id));
    setText(index, String(step.index + 1));
    setText(action, step.action || (isThought ? "Thought" : step.kind));
    const argsText = isThought ? "" : compactJson(step.arguments);
    setText(args, truncate(argsText, ARGUMENTS_PREVIEW).text);
    setAttr(args, "title", argsText || null);
    args.hidden = !argsText;
    setText(status, STEP_STATUS_LABEL[step.status] ?? step.status);
    status.className = `step-status status-${step.status}`;
    setText(duration, step.status === "running" ? "" : formatDuration(step.duration_ms));
    thought.hidden = !isThought;
    if (isThought) setText(thought, thoughtText(step));
    error.hidden = !step.error;
    setText(error, step.error);
    observation.update(isThought ? "" : step.observation);
    // In the DOM only when there is one, so counting step-screenshot counts real screenshots.
    if (step.screenshot_url) {
      if (shot.getAttribute("src") !== step.screenshot_url) shot.src = step.screenshot_url;
      if (!shot.isConnected) el.appendChild(shot);
    } else {
      shot.remove();
    }
  };
  update(initial);
  return { el, update };
}

/** The block shown in the chat for one run. */
export function createRunBlock(initial: RunItem): Component<RunItem> {
  const badge = h("span", { class: "badge" });
  const meta = h("span", { class: "run-meta" });
  const stepsEl = h("ol", { class: "steps" });
  const pending = h("div", { class: "run-pending" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span"));
  const error = h("div", { class: "run-error", "data-testid": "run-error", role: "alert" });
  const steps = new KeyedList<Step>(stepsEl, (s) => String(s.id), createStep);
  const label = h("span", { class: "run-label" });
  const el = h(
    "section",
    { class: "run" },
    h("header", { class: "run-head" }, label, badge, meta),
    stepsEl,
    pending,
  );
  const update = ({ run, steps: list, manual }: RunItem): void => {
    setAttr(el, "data-run-id", String(run.id));
    setAttr(el, "data-status", run.status);
    setAttr(el, "data-origin", manual ? "manual" : "agent");
    el.classList.toggle("run-manual", !!manual);
    setText(label, runLabel(manual));
    badge.className = `badge status-${run.status}`;
    setText(badge, RUN_STATUS_LABEL[run.status] ?? run.status);
    const parts = [
      // An action run by hand is one step: counting it says nothing.
      list.length && !manual ? `${list.length} step${list.length === 1 ? "" : "s"}` : "",
      formatDuration(runDurationMs(run)),
      formatTokens(run.prompt_tokens, run.completion_tokens),
    ].filter(Boolean);
    setText(meta, parts.join(" · "));
    steps.update(list);
    stepsEl.hidden = list.length === 0;
    const lastRunning = list.length > 0 && list[list.length - 1]!.status === "running";
    pending.hidden = !isActiveStatus(run.status) || lastRunning;
    setText(
      pending.lastElementChild!,
      run.status === "queued"
        ? "Waiting for a browser…"
        : run.status === "waiting"
          ? "Waiting for your confirmation…"
          : manual
            ? "Working…"
            : "Thinking…",
    );
    const showError = run.status === "failed" || (run.status === "aborted" && !!run.error);
    // In the DOM only for a run that has an error, so run-error always means one.
    if (showError) {
      const text = run.error || (run.status === "failed" ? "The run failed." : "The run was stopped.");
      if (error.textContent !== text) replaceChildren(error, icon(ICONS.alert, 16), h("span", null, text));
      if (!error.isConnected) el.appendChild(error);
    } else {
      error.remove();
    }
    el.classList.toggle("run-empty", list.length === 0 && !isActiveStatus(run.status) && !showError);
  };
  update(initial);
  return { el, update };
}

/** Shows a screenshot full size; click, Escape or the close button dismisses it. */
export function openLightbox(src: string, alt: string): void {
  const close = (): void => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") close();
  };
  const overlay = h(
    "div",
    {
      class: "lightbox",
      "data-testid": "lightbox",
      role: "dialog",
      "aria-modal": "true",
      "aria-label": alt,
      onclick: close,
    },
    h("img", { src, alt }),
    h("button", { class: "lightbox-close btn btn-icon", type: "button", "aria-label": "Close" }, icon(ICONS.close, 20)),
  );
  document.addEventListener("keydown", onKey);
  document.body.appendChild(overlay);
}
