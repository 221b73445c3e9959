// The owner's schedules for one workflow: the list (cron, time zone, parameters, what a step that needs a yes
// does, last run) with Delete, and a form to add one with the run form's parameter fields.

import type { ApiClient } from "../../api/client";
import type { Workflow, WorkflowSchedule } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { ProfileFields } from "../browserprofiles/picker";
import { parameterFields } from "./fields";
import { browserTimeZone, scheduleLine } from "./format";

export class WorkflowSchedules {
  readonly el: HTMLDetailsElement;
  private readonly list: HTMLUListElement;
  private readonly status: HTMLElement;
  private readonly summary: HTMLElement;

  constructor(
    private readonly api: ApiClient,
    private readonly workflow: Workflow,
  ) {
    this.list = h("ul", { class: "wf-schedules", "data-testid": "workflow-schedules" });
    this.status = h("p", { class: "form-error", role: "alert", "data-testid": "workflow-schedule-error" });
    this.summary = h("summary", null, "Schedules");
    this.el = h(
      "details",
      { class: "wf-details", "data-testid": "workflow-schedule-section" },
      this.summary,
      this.list,
      this.form(),
      this.status,
    );
  }

  async load(): Promise<void> {
    try {
      this.render(await this.api.listWorkflowSchedules(this.workflow.id));
    } catch (err) {
      setText(this.status, `Could not load the schedules: ${errorText(err)}`);
    }
  }

  private render(schedules: WorkflowSchedule[]): void {
    if (schedules.length === 0) {
      replaceChildren(this.list, h("li", { class: "record-detail" }, "Not scheduled."));
    } else {
      replaceChildren(this.list, ...schedules.map((schedule) => this.item(schedule)));
    }
    setText(this.summary, schedules.length ? `Schedules (${schedules.length})` : "Schedules");
  }

  private item(schedule: WorkflowSchedule): HTMLElement {
    const remove = h("button", { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": "workflow-schedule-delete" }, "Delete");
    remove.addEventListener("click", () => {
      remove.disabled = true;
      void this.api
        .deleteWorkflowSchedule(this.workflow.id, schedule.id)
        .then(() => this.load())
        .catch((err: unknown) => {
          remove.disabled = false;
          setText(this.status, errorText(err));
        });
    });
    return h(
      "li",
      { class: "wf-schedule", "data-testid": "workflow-schedule", "data-schedule-id": String(schedule.id) },
      h("code", null, schedule.cron),
      h("span", { class: "record-detail" }, scheduleLine(schedule, Date.now(), this.workflow.parameters.map((p) => p.name))),
      remove,
    );
  }

  private form(): HTMLFormElement {
    const cron = h("input", {
      class: "input",
      placeholder: "30 9 * * 1-5",
      required: true,
      "aria-label": "When (cron)",
      "data-testid": "workflow-schedule-cron",
    });
    const timezone = h("input", {
      class: "input",
      value: browserTimeZone(),
      required: true,
      "aria-label": "Time zone",
      "data-testid": "workflow-schedule-timezone",
    });
    const confirmations = h(
      "select",
      { class: "input", "aria-label": "When a step needs a yes", "data-testid": "workflow-schedule-confirmations" },
      h("option", { value: "wait" }, "Wait and notify me"),
      h("option", { value: "refuse" }, "Refuse: the run stops there"),
    );
    const values = parameterFields(this.workflow, "workflow-schedule-param-");
    const profile = new ProfileFields(this.api, "workflow-schedule-");
    const add = h("button", { class: "btn btn-secondary", type: "submit", "data-testid": "workflow-schedule-add" }, "Add schedule");
    const labelled = (label: string, control: HTMLElement, hint?: string) =>
      h(
        "label",
        { class: "field" },
        h("span", { class: "field-label" }, label),
        control,
        hint ? h("span", { class: "field-hint" }, hint) : null,
      );
    const form = h(
      "form",
      { class: "wf-schedule-form", "aria-label": "Add a schedule" },
      h(
        "div",
        { class: "form-grid" },
        labelled("When (cron)", cron, "minute hour day-of-month month day-of-week: 30 9 * * 1-5 is 9:30 on weekdays"),
        labelled("Time zone", timezone),
        ...values.fields,
        labelled("When a step needs a yes", confirmations),
        profile.el,
      ),
      h("div", { class: "form-actions start" }, add),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      add.disabled = true;
      setText(this.status, "");
      void this.api
        .createWorkflowSchedule(this.workflow.id, {
          cron: cron.value.trim(),
          timezone: timezone.value.trim() || "UTC",
          parameters: values.values(),
          confirmations: confirmations.value === "refuse" ? "refuse" : "wait",
          ...profile.value(),
        })
        .then(() => {
          cron.value = "";
          return this.load();
        })
        .catch((err: unknown) => setText(this.status, errorText(err)))
        .finally(() => (add.disabled = false));
    });
    return form;
  }
}
