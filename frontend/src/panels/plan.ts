// The plan the agent published for a run, as a checklist: each step's state, its dependencies shown subtly.

import type { PlanStep, PlanStepStatus } from "../api/types";
import { h, KeyedList, setAttr, setText, type Component } from "../dom";
import { PLAN_STATUS_LABEL, labelFor } from "../format";

/** "after 1, 3": a step's dependencies by their place in the checklist (ids the plan lacks are named as they are). */
export function dependencyLabel(plan: readonly PlanStep[], step: PlanStep): string {
  if (!step.depends_on.length) return "";
  const position = new Map(plan.map((s, i) => [s.id, i + 1]));
  return "after " + step.depends_on.map((id) => String(position.get(id) ?? id)).join(", ");
}

/** How far the plan is: finished (done or skipped) steps, failed ones, and all. */
export function planProgress(plan: readonly PlanStep[]): { finished: number; failed: number; total: number } {
  let finished = 0;
  let failed = 0;
  for (const step of plan) {
    if (step.status === "done" || step.status === "skipped") finished += 1;
    else if (step.status === "failed") failed += 1;
  }
  return { finished, failed, total: plan.length };
}

export function planSummary(plan: readonly PlanStep[]): string {
  const { finished, failed, total } = planProgress(plan);
  return `${finished} of ${total} done` + (failed ? ` · ${failed} failed` : "");
}

interface Row {
  step: PlanStep;
  deps: string;
  depTitles: string;
}

function statusLabel(status: PlanStepStatus): string {
  return labelFor(PLAN_STATUS_LABEL, status);
}

/** A row's text is its title (and dependencies): the mark and number are drawn by CSS from attributes. */
function createRow(initial: Row): Component<Row> {
  const mark = h("span", { class: "plan-mark", role: "img" });
  const title = h("span", { class: "plan-title" });
  const deps = h("span", { class: "plan-deps" });
  const el = h("li", { class: "plan-step", "data-testid": "plan-step" }, mark, title, deps);
  const update = ({ step, deps: depText, depTitles }: Row): void => {
    setAttr(el, "data-status", step.status);
    setAttr(el, "data-step-id", step.id);
    setAttr(mark, "aria-label", statusLabel(step.status));
    setAttr(mark, "title", statusLabel(step.status));
    setText(title, step.title);
    setText(deps, depText);
    deps.hidden = !depText;
    setAttr(deps, "title", depTitles || null);
  };
  update(initial);
  return { el, update };
}

export function createPlan(): { el: HTMLElement; update(plan: readonly PlanStep[]): void } {
  const summary = h("span", { class: "plan-summary" });
  const list = h("ol", { class: "plan-steps" });
  const rows = new KeyedList<Row>(list, (r) => r.step.id, createRow);
  const el = h(
    "div",
    { class: "plan", "data-testid": "plan", role: "group", "aria-label": "Plan" },
    h("div", { class: "plan-head" }, h("span", { class: "plan-label" }, "Plan"), summary),
    list,
  );
  return {
    el,
    update(plan) {
      setText(summary, planSummary(plan));
      const titles = new Map(plan.map((s) => [s.id, s.title]));
      rows.update(
        plan.map((step) => ({
          step,
          deps: dependencyLabel(plan, step),
          depTitles: step.depends_on.length
            ? "Starts after: " + step.depends_on.map((id) => titles.get(id) ?? id).join("; ")
            : "",
        })),
      );
    },
  };
}
