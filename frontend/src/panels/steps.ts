// Step timeline: one block per run with the agent's plan, its steps (action, arguments, observation, status,
// duration, screenshot; thoughts and notices in their own style), the confirmations it asked for, and, for a
// failed run, its error; a finished run shows its token usage and a link to what the model saw.

import type { Confirmation, Id, PlanStep, Run, RunStatus, Step } from "../api/types";
import { h, icon, ICONS, KeyedList, present, replaceChildren, setAttr, setText, type Component } from "../dom";
import {
  RUN_STATUS_LABEL,
  STEP_STATUS_LABEL,
  labelFor,
  compactJson,
  formatDuration,
  formatTokenUsage,
  hostOf,
  truncate,
} from "../format";
import { isActiveStatus, isTerminalStatus } from "../reducer";
import { createConfirmationCard, type ConfirmationActions, type ConfirmationCardData } from "./confirmation";
import { createPlan } from "./plan";

const OBSERVATION_PREVIEW = 1200;
const THOUGHT_PREVIEW = 900;
const ARGUMENTS_PREVIEW = 160;

export interface RunItem {
  run: Run;
  steps: Step[];
  /** The action of a run started by hand ("navigate"); null or absent for the agent's turns. */
  manual?: string | null;
  confirmations?: Confirmation[];
  plan?: PlanStep[];
}

/** What the run blocks can ask of the page: answer a confirmation, open a run's model calls. */
export interface RunActions extends ConfirmationActions {
  openDebug(runId: Id): void;
  /** Saves a run that worked as a workflow; resolves to what to tell the user. */
  saveWorkflow?(runId: Id): Promise<string>;
}
/** "Agent run", or "You: navigate" for an action run by hand from the address bar or the tabs. */
export function runLabel(manual: string | null | undefined, kind?: Run["kind"]): string {
  if (kind === "workflow") return "Workflow replay";
  return manual ? `You: ${manual}` : "Agent run";
}

export function runDurationMs(run: Run): number | null {
  if (!run.started_at || !run.finished_at) return null;
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export function thoughtText(step: Step): string {
  if (step.observation) return step.observation;
  const args = step.arguments;
  if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    for (const key of ["thought", "text", "content"]) if (typeof record[key] === "string") return record[key];
  }
  return compactJson(args);
}

/** How a step is drawn: the agent's reasoning, a notice line, or an action (the default). */
export function stepStyle(step: Pick<Step, "kind" | "action">): "thought" | "notice" | "action" {
  if (step.kind === "thought") return "thought";
  if (step.kind === "system" && step.action === "notice") return "notice";
  return "action";
}

/** Text that shows its first part and can show the rest. */
function createExpandable(limit: number, className: string): { el: HTMLElement; text: HTMLElement; update(full: string): void } {
  const text = h("pre", { class: className });
  const more = h("button", { class: "link-button", type: "button" });
  let full = "";
  let expanded = false;
  const render = (): void => {
    const cut = truncate(full, limit);
    setText(text, expanded ? full : cut.text);
    more.hidden = !cut.cut;
    setText(more, expanded ? "Show less" : `Show more (${full.length.toLocaleString("en-US")} characters)`);
  };
  more.addEventListener("click", () => {
    expanded = !expanded;
    render();
  });
  return {
    el: h("div", null, text, more),
    text,
    update(next: string) {
      if (next === full) return;
      full = next;
      render();
    },
  };
}

/** A collapsible, monospace observation that shows the first part and can show the rest. */
function createObservation(): { el: HTMLDetailsElement; update(text: string): void } {
  const preview = h("span", { class: "obs-preview" });
  const body = createExpandable(OBSERVATION_PREVIEW, "obs-text");
  const el = h(
    "details",
    { class: "step-obs" },
    h("summary", null, h("span", { class: "obs-label" }, "Observation"), preview),
    body.el,
  );
  let shown: string | null = null;
  return {
    el,
    update(text: string): void {
      el.hidden = !text;
      if (text === shown) return;
      shown = text;
      setText(preview, truncate(text.split("\n", 1)[0] ?? "", 90).text);
      body.update(text);
    },
  };
}

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

function confirmationCards(container: HTMLElement, actions: RunActions | undefined): KeyedList<ConfirmationCardData> {
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

function createStep(initial: StepEntry, actions: RunActions | undefined): Component<StepEntry> {
  switch (stepStyle(initial.step)) {
    case "thought":
      return createThoughtStep(initial);
    case "notice":
      return createNoticeStep(initial);
    case "action":
      return createActionStep(initial, actions);
  }
}

/**
 * Pairs each confirmation with the step it asks about; the rest (no step, or one not loaded yet) are loose
 * and show after the steps. Thoughts and notices never carry one.
 */
export function attachConfirmations(
  steps: readonly Step[],
  confirmations: readonly Confirmation[],
): { byStep: Map<Id, Confirmation[]>; loose: Confirmation[] } {
  const actionSteps = new Set(steps.filter((s) => stepStyle(s) === "action").map((s) => s.id));
  const byStep = new Map<Id, Confirmation[]>();
  const loose: Confirmation[] = [];
  for (const c of confirmations) {
    if (c.step !== null && actionSteps.has(c.step)) {
      const list = byStep.get(c.step);
      if (list) list.push(c);
      else byStep.set(c.step, [c]);
    } else {
      loose.push(c);
    }
  }
  return { byStep, loose };
}

const NO_CONFIRMATIONS: Confirmation[] = [];

/** The block shown in the chat for one run. */
export function createRunBlock(initial: RunItem, actions?: RunActions): Component<RunItem> {
  const badge = h("span", { class: "badge" });
  const meta = h("span", { class: "run-meta" });
  const plan = createPlan();
  const stepsEl = h("ol", { class: "steps" });
  const looseEl = h("div", { class: "run-confirmations" });
  const loose = confirmationCards(looseEl, actions);
  const pendingText = h("span");
  const pending = h("div", { class: "run-pending" }, h("span", { class: "spinner", "aria-hidden": "true" }), pendingText);
  const error = h("div", { class: "run-error", "data-testid": "run-error", role: "alert" });
  const tokens = h("span", { class: "run-tokens", "data-testid": "run-tokens" });
  const debug = h(
    "button",
    { class: "link-button run-debug", type: "button", "data-testid": "run-debug" },
    "What the model saw",
  );
  const save = h(
    "button",
    { class: "link-button run-save-workflow", type: "button", "data-testid": "run-save-workflow" },
    "Save as workflow",
  );
  const saved = h("span", { class: "run-saved", role: "status", "data-testid": "run-saved" });
  const foot = h("footer", { class: "run-foot" });
  let currentRun: Run = initial.run;
  debug.addEventListener("click", () => actions?.openDebug(currentRun.id));
  save.addEventListener("click", () => {
    if (!actions?.saveWorkflow) return;
    save.disabled = true;
    void actions
      .saveWorkflow(currentRun.id)
      .then((text) => {
        setText(saved, text);
        present(foot, saved, !!text);
        foot.hidden = !foot.firstChild;
      })
      .finally(() => (save.disabled = false));
  });
  const steps = new KeyedList<StepEntry>(
    stepsEl,
    (e) => String(e.step.id),
    (e) => createStep(e, actions),
  );
  const label = h("span", { class: "run-label" });
  const sharedTabs = h("div", { class: "run-shared-tabs", "data-testid": "run-shared-tabs" });
  const el = h(
    "section",
    { class: "run" },
    h("header", { class: "run-head" }, label, badge, meta),
    stepsEl,
    looseEl,
    pending,
    foot,
  );
  const update = ({ run, steps: list, manual, confirmations = NO_CONFIRMATIONS, plan: planSteps = [] }: RunItem): void => {
    currentRun = run;
    setAttr(el, "data-run-id", String(run.id));
    setAttr(el, "data-status", run.status);
    setAttr(el, "data-origin", manual ? "manual" : "agent");
    el.classList.toggle("run-manual", !!manual);
    setText(label, runLabel(manual, run.kind));
    badge.className = `badge status-${run.status}`;
    setText(badge, labelFor(RUN_STATUS_LABEL, run.status));
    const parts = [
      // An action run by hand is one step: counting it says nothing.
      list.length && !manual ? `${list.length} step${list.length === 1 ? "" : "s"}` : "",
      formatDuration(runDurationMs(run)),
    ].filter(Boolean);
    setText(meta, parts.join(" · "));
    // The tabs the user shared with this turn (its title and URL as they were when sent).
    const shared = run.shared_tabs ?? [];
    present(el, sharedTabs, shared.length > 0, plan.el.parentNode === el ? plan.el : stepsEl);
    const sharedKey = JSON.stringify(shared);
    if (shared.length && sharedTabs.dataset.key !== sharedKey) {
      sharedTabs.dataset.key = sharedKey;
      replaceChildren(
        sharedTabs,
        icon(ICONS.share, 12),
        h("span", { class: "run-shared-label" }, "Shared tabs"),
        ...shared.map((tab) =>
          h(
            "span",
            { class: "run-shared-tab", "data-tab-id": tab.id, title: tab.url ?? "" },
            tab.title || (tab.url ? hostOf(tab.url) : tab.id),
          ),
        ),
      );
    }
    plan.update(planSteps);
    present(el, plan.el, planSteps.length > 0, stepsEl);

    const { byStep, loose: looseList } = attachConfirmations(list, confirmations);
    steps.update(list.map((step) => ({ step, confirmations: byStep.get(step.id) ?? NO_CONFIRMATIONS, runStatus: run.status })));
    stepsEl.hidden = list.length === 0;
    loose.update(looseList.map((confirmation) => ({ confirmation, runStatus: run.status })));
    looseEl.hidden = looseList.length === 0;

    const asking = confirmations.some((c) => c.status === "pending");
    const lastRunning = list.at(-1)?.status === "running";
    pending.hidden = !isActiveStatus(run.status) || lastRunning || (run.status === "waiting" && asking);
    setText(
      pendingText,
      run.status === "queued"
        ? "Waiting for a browser…"
        : run.status === "waiting"
          ? "Waiting for you…"
          : manual
            ? "Working…"
            : "Thinking…",
    );
    const showError = run.status === "failed" || (run.status === "aborted" && !!run.error);
    // In the DOM only for a run that has an error, so run-error always means one.
    if (showError) {
      const text = run.error || (run.status === "failed" ? "The run failed." : "The run was stopped.");
      if (error.textContent !== text) replaceChildren(error, icon(ICONS.alert, 16), h("span", null, text));
      if (!error.isConnected) el.insertBefore(error, foot);
    } else {
      error.remove();
    }

    // Token usage once the run is over; what the model saw for any of the agent's turns that got going.
    const usage = isTerminalStatus(run.status) ? formatTokenUsage(run.prompt_tokens, run.completion_tokens) : "";
    setText(tokens, usage);
    setAttr(tokens, "title", usage ? "Tokens sent to the model (in) and generated by it (out)" : null);
    present(foot, tokens, !!usage, debug.parentNode === foot ? debug : null);
    const agentTurn = !manual && run.kind !== "action";
    present(foot, debug, agentTurn && !!actions && run.status !== "queued");
    const savable = agentTurn && run.kind !== "workflow" && run.status === "succeeded" && !!actions?.saveWorkflow;
    present(foot, save, savable);
    present(foot, saved, savable && !!saved.textContent);
    foot.hidden = !foot.firstChild;

    el.classList.toggle(
      "run-empty",
      list.length === 0 && planSteps.length === 0 && confirmations.length === 0 && !isActiveStatus(run.status) && !showError,
    );
  };
  update(initial);
  return {
    el,
    update,
    destroy: () => {
      steps.clear();
      loose.clear();
    },
  };
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
