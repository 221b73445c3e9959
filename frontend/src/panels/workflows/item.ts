// One workflow in Settings → Workflows: its name and summary, export link, the run form made from its parameters,
// its steps, versions and replays; for the owner also Edit, schedules, sharing and Delete. After an edit is saved
// the item draws itself again from the new version.

import type { ApiClient } from "../../api/client";
import type { Id, Workflow, WorkflowStep } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { confirmAction } from "../dialogs";
import { argumentText, stepTarget } from "./edit";
import { WorkflowEditor } from "./editor";
import { ProfileFields } from "../browserprofiles/picker";
import { parameterFields } from "./fields";
import { workflowSummary } from "./format";
import { WorkflowHistory } from "./history";
import { WorkflowSchedules } from "./schedules";
import { shareForm } from "./share";
import { WorkflowVersions } from "./versions";
import { WorkflowWebhook } from "./webhook";

export interface ItemOptions {
  api: ApiClient;
  /** A replay started: open its conversation. */
  openConversation: (id: Id) => void;
  /** The owner deleted it. */
  deleted: () => void;
}

/** "type “Email” {{email}} — type the email", for the read-only list of steps. */
function stepLine(step: WorkflowStep): HTMLElement {
  const target = stepTarget(step);
  const argument = argumentText(step);
  return h(
    "li",
    { "data-testid": "workflow-step", "data-action": step.action },
    h("code", null, step.action),
    target ? ` “${target.name || target.tag}”` : "",
    argument ? h("span", { class: "record-detail" }, ` ${argument}`) : null,
    step.intent ? h("span", { class: "record-detail" }, ` — ${step.intent}`) : null,
  );
}

export class WorkflowItem {
  readonly el: HTMLLIElement;

  constructor(
    private workflow: Workflow,
    private readonly options: ItemOptions,
  ) {
    this.el = h("li", { class: "record-item card workflow-item", "data-testid": "workflow-item" });
    this.render();
  }

  private get owner(): boolean {
    return this.workflow.access === "owner";
  }

  private render(): void {
    const { api } = this.options;
    const workflow = this.workflow;
    this.el.dataset.workflowId = String(workflow.id);
    this.el.classList.remove("editing");
    const body = h("div", { class: "wf-body" });
    const edit = h("button", { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "workflow-edit" }, "Edit");
    edit.hidden = !this.owner;
    edit.addEventListener("click", () => this.openEditor(body, edit));
    const history = new WorkflowHistory(api, workflow.id);
    const schedules = this.owner ? new WorkflowSchedules(api, workflow) : null;
    replaceChildren(
      body,
      this.runForm(),
      h(
        "details",
        { class: "wf-details", "data-testid": "workflow-steps" },
        h("summary", null, "Steps"),
        h("ol", { class: "wf-steps" }, ...workflow.steps.map(stepLine)),
      ),
      new WorkflowVersions(api, workflow.id, workflow.version).el,
      schedules?.el,
      this.owner ? new WorkflowWebhook(api, workflow).el : null,
      this.owner ? shareForm(api, workflow) : null,
      h("h3", { class: "wf-subtitle" }, "Replays"),
      history.el,
    );
    replaceChildren(
      this.el,
      h(
        "div",
        { class: "record-head" },
        h("strong", null, workflow.name),
        h("span", { class: "record-detail", "data-testid": "workflow-summary" }, workflowSummary(workflow)),
        h(
          "a",
          { class: "link-button", href: `/api/workflows/${workflow.id}/export/`, download: "", "data-testid": "workflow-export" },
          "Export as a Playwright script",
        ),
        edit,
      ),
      body,
    );
    void history.load();
    void schedules?.load();
  }

  private openEditor(body: HTMLElement, edit: HTMLButtonElement): void {
    const editor = new WorkflowEditor({
      api: this.options.api,
      workflow: this.workflow,
      saved: (workflow) => {
        this.workflow = workflow;
        this.render();
      },
      cancelled: () => this.render(),
    });
    edit.hidden = true;
    this.el.classList.add("editing");
    replaceChildren(body, editor.el);
    editor.el.querySelector("input")?.focus();
  }

  private runForm(): HTMLElement {
    const workflow = this.workflow;
    if (workflow.access === "viewer") {
      return h("p", { class: "record-detail" }, "You may look at this workflow; its owner can let you run it too.");
    }
    const values = parameterFields(workflow, "workflow-param-");
    const profile = new ProfileFields(this.options.api, "workflow-run-");
    const message = h("p", { class: "form-error", role: "alert" });
    const run = h("button", { class: "btn btn-primary", type: "submit", "data-testid": "workflow-run" }, "Run");
    const remove = h("button", { class: "btn btn-ghost", type: "button", "data-testid": "workflow-delete" }, "Delete");
    remove.hidden = !this.owner;
    remove.addEventListener("click", () => {
      void confirmAction({
        title: "Delete this workflow?",
        subtitle: workflow.name,
        text: `“${workflow.name}”, its versions and its schedules are deleted; its past replays stay in their conversations.`,
        submitLabel: "Delete workflow",
        danger: true,
        testid: "workflow-delete-dialog",
        confirm: () => this.options.api.deleteWorkflow(workflow.id),
      }).then((deleted) => deleted && this.options.deleted());
    });
    const form = h(
      "form",
      { class: "workflow-form" },
      ...values.fields,
      profile.el,
      h("div", { class: "form-actions start" }, run, remove),
      message,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run.disabled = true;
      setText(message, "");
      void this.options.api
        .runWorkflow(workflow.id, values.values(), profile.value())
        .then((started) => this.options.openConversation(started.conversation))
        .catch((err: unknown) => setText(message, errorText(err)))
        .finally(() => (run.disabled = false));
    });
    return form;
  }
}
