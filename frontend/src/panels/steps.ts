// Step timeline: one block per run — its number in the conversation and who started it — with the agent's plan,
// its steps (action, arguments, observation, status, duration, screenshot; thoughts and notices in their own
// style), the confirmations it asked for, and, for a failed run, its error; a finished run shows its token usage,
// what it cost, the files it downloaded as cards, "Watch again" (its recording, for everyone who sees it), its
// Playwright trace when it kept one, and its owner what the model saw (where it was called) and "Save as workflow".

import type { Confirmation, Run } from "../api/types";
import { h, icon, ICONS, KeyedList, present, replaceChildren, setAttr, setText, type Component } from "../dom";
import { RUN_STATUS_LABEL, labelFor, formatDuration, formatTokenUsage, hostOf } from "../format";
import { signedInUser } from "../people";
import { isActiveStatus, isTerminalStatus } from "../reducer";
import { setPersonAvatar } from "./person";
import { createPlan } from "./plan";
import {
  attachConfirmations,
  runDurationMs,
  runLabel,
  runNumberLabel,
  runOffers,
  runStarter,
  type RunActions,
  type RunItem,
} from "./steps/model";
import { createDownloadCards } from "./steps/files";
import { confirmationCards, createStep, type StepEntry } from "./steps/step";
import { runCostText } from "./usage/cost";
import { createWatchAgain } from "./recording/watch";

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
  const cost = h("span", { class: "run-cost", "data-testid": "run-cost", title: "What the run's model calls cost" });
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
  const trace = h(
    "a",
    { class: "link-button run-trace", download: "trace.zip", "data-testid": "run-trace" },
    "Trace",
  );
  setAttr(trace, "title", "The run as a Playwright trace: open it with `playwright show-trace trace.zip`");
  const foot = h("footer", { class: "run-foot" });
  let currentRun: Run = initial.run;
  debug.addEventListener("click", () => actions?.openDebug(currentRun.id, runNumberLabel(currentRun)));
  save.addEventListener("click", () => {
    if (!actions?.saveWorkflow) return;
    save.disabled = true;
    void actions
      .saveWorkflow(currentRun.id, runNumberLabel(currentRun))
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
  const label = h("span", { class: "run-label", "data-testid": "run-label" });
  const number = h("span", { class: "run-number", "data-testid": "run-number" });
  const starter = h("span", { class: "run-starter" });
  const sharedTabs = h("div", { class: "run-shared-tabs", "data-testid": "run-shared-tabs" });
  const downloads = createDownloadCards();
  const watch = createWatchAgain(() => currentRun.id, stepsEl, actions);
  const el = h(
    "section",
    { class: "run" },
    h("header", { class: "run-head" }, number, starter, label, badge, meta),
    stepsEl,
    looseEl,
    downloads.el,
    pending,
    watch.el,
    foot,
  );
  const update = (item: RunItem): void => {
    const { run, steps: list, manual, confirmations = NO_CONFIRMATIONS, plan: planSteps = [], files = [] } = item;
    currentRun = run;
    setAttr(el, "data-run-id", String(run.id));
    setAttr(el, "data-status", run.status);
    setAttr(el, "data-origin", manual ? "manual" : "agent");
    setAttr(el, "data-started-by", run.started_by ?? null);
    el.classList.toggle("run-manual", !!manual);
    setText(number, runNumberLabel(run));
    number.hidden = !number.textContent;
    setPersonAvatar(starter, runStarter(run, manual));
    setText(label, runLabel(manual, run.kind, run.started_by, signedInUser()));
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
    downloads.update(files);

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
    const spent = isTerminalStatus(run.status) ? runCostText(run) : "";
    setText(cost, spent);
    present(foot, cost, !!spent, tokens.parentNode === foot ? tokens : debug.parentNode === foot ? debug : null);
    const offers = runOffers(run, manual, !!item.ownerReads);
    present(foot, debug, offers.debug && !!actions);
    const savable = offers.save && !!actions?.saveWorkflow;
    present(foot, save, savable);
    present(foot, saved, savable && !!saved.textContent);
    setAttr(trace, "href", run.trace_url ?? null);
    present(foot, trace, !!run.trace_url);
    present(foot, watch.button, watch.offered(run, manual));
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
      watch.destroy();
    },
  };
}
