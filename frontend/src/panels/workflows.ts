// Settings → Workflows: the user's saved workflows, each with a form made from its parameters (defaults filled
// in) to replay it, and a link to export it as a Playwright script. A replay opens in its own conversation
// (GET /api/workflows/, POST /api/workflows/<id>/runs/, GET /api/workflows/<id>/export/).

import type { ApiClient } from "../api/client";
import type { Id, Workflow, WorkflowRun } from "../api/types";
import { h, replaceChildren, setText } from "../dom";
import { errorText } from "../errors";
import { relativeTime } from "../format";

// --- Pure parts (unit-tested) ---

/** The values to send: every parameter, as typed (an emptied field sends an empty value, not the default). */
export function workflowValues(workflow: Workflow, typed: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(workflow.parameters.map((p) => [p.name, typed.get(p.name) ?? p.default]));
}

/** "3 steps · version 2", and whose it is when it was shared with you. */
export function workflowSummary(workflow: Workflow): string {
  const steps = `${workflow.steps.length} step${workflow.steps.length === 1 ? "" : "s"}`;
  const version = workflow.version && workflow.version > 1 ? ` · version ${workflow.version}` : "";
  const shared = workflow.access === "owner" ? "" : ` · shared by ${workflow.owner} (you are a ${workflow.access})`;
  return `${steps}${version}${shared}`;
}

/** "Succeeded · 2 minutes ago", and the model's part when a step had to be healed. */
export function workflowRunLine(run: WorkflowRun, now = Date.now()): string {
  const status = run.status.charAt(0).toUpperCase() + run.status.slice(1);
  const healed = run.prompt_tokens > 0 ? ` · healed (${run.prompt_tokens} tokens)` : "";
  return `${status} · ${relativeTime(run.created_at, now)}${healed}`;
}

// --- The section ---

export interface WorkflowsOptions {
  api: ApiClient;
  /** A replay started: open its conversation. */
  openConversation: (id: Id) => void;
}

export class WorkflowsSection {
  readonly el: HTMLElement;
  private readonly listEl: HTMLElement;
  private readonly status: HTMLElement;

  constructor(private readonly options: WorkflowsOptions) {
    this.listEl = h("ul", { class: "record-list", "data-testid": "workflow-list" });
    this.status = h("p", { class: "settings-lead", role: "status" });
    this.el = h(
      "section",
      { class: "settings-section", "data-testid": "workflows", "aria-labelledby": "workflows-title" },
      h("h2", { id: "workflows-title" }, "Workflows"),
      h(
        "p",
        { class: "settings-lead" },
        "Runs you saved with “Save as workflow”. A workflow replays without the model, with the values you give it, and heals a step when the page changed.",
      ),
      this.status,
      this.listEl,
    );
  }

  async load(): Promise<void> {
    setText(this.status, "Loading…");
    try {
      const workflows = await this.options.api.listWorkflows();
      setText(this.status, workflows.length ? "" : "No workflows yet. Save one from an agent run that worked.");
      replaceChildren(this.listEl, ...workflows.map((workflow) => this.item(workflow)));
    } catch (err) {
      setText(this.status, `Could not load your workflows: ${errorText(err)}`);
    }
  }

  private item(workflow: Workflow): HTMLElement {
    const typed = new Map<string, string>();
    const fields = workflow.parameters.map((parameter) => {
      const input = h("input", {
        class: "input",
        value: parameter.default,
        "aria-label": parameter.label || parameter.name,
        "data-testid": `workflow-param-${parameter.name}`,
      });
      input.addEventListener("input", () => typed.set(parameter.name, input.value));
      return h("label", { class: "field" }, h("span", { class: "field-label" }, parameter.label || parameter.name), input);
    });
    const message = h("p", { class: "form-error", role: "alert" });
    const history = h("ul", { class: "workflow-runs", "data-testid": "workflow-runs" });
    void this.options.api
      .listWorkflowRuns(workflow.id)
      .then((runs) =>
        replaceChildren(
          history,
          ...runs.slice(0, 3).map((run) =>
            h(
              "li",
              { "data-testid": "workflow-run-item", "data-status": run.status },
              h("a", { href: `/c/${run.conversation}` }, workflowRunLine(run)),
              run.error ? h("span", { class: "record-detail" }, ` — ${run.error}`) : null,
            ),
          ),
        ),
      )
      .catch(() => undefined);
    const remove = h("button", { class: "btn btn-ghost", type: "button", "data-testid": "workflow-delete" }, "Delete");
    remove.hidden = workflow.access !== "owner";
    const share = this.shareForm(workflow);
    remove.addEventListener("click", () => {
      if (!window.confirm(`Delete the workflow “${workflow.name}” and its schedules?`)) return;
      void this.options.api
        .deleteWorkflow(workflow.id)
        .then(() => this.load())
        .catch((err: unknown) => setText(message, errorText(err)));
    });
    const run = h("button", { class: "btn btn-primary", type: "submit", "data-testid": "workflow-run" }, "Run");
    const form = h(
      "form",
      { class: "workflow-form" },
      ...fields,
      h("div", { class: "form-actions start" }, run, remove),
      message,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run.disabled = true;
      setText(message, "");
      void this.options.api
        .runWorkflow(workflow.id, workflowValues(workflow, typed))
        .then((started) => this.options.openConversation(started.conversation))
        .catch((err: unknown) => setText(message, errorText(err)))
        .finally(() => (run.disabled = false));
    });
    return h(
      "li",
      { class: "record-item", "data-testid": "workflow-item", "data-workflow-id": String(workflow.id) },
      h(
        "div",
        { class: "record-head" },
        h("strong", null, workflow.name),
        h("span", { class: "record-detail" }, workflowSummary(workflow)),
        h(
          "a",
          { class: "link-button", href: `/api/workflows/${workflow.id}/export/`, download: "", "data-testid": "workflow-export" },
          "Export as a Playwright script",
        ),
      ),
      form,
      share,
      history,
    );
  }

  /** The owner shares the workflow by username, as a viewer (sees it) or a controller (also runs it). */
  private shareForm(workflow: Workflow): HTMLElement | null {
    if (workflow.access !== "owner") return null;
    const username = h("input", { class: "input", placeholder: "Username", "aria-label": "Share with", "data-testid": "workflow-share-user" });
    const role = h(
      "select",
      { class: "input", "aria-label": "Role", "data-testid": "workflow-share-role" },
      h("option", { value: "viewer" }, "Viewer: sees it"),
      h("option", { value: "controller" }, "Controller: also runs it"),
    );
    const status = h("span", { class: "record-detail", role: "status", "data-testid": "workflow-share-status" });
    const button = h("button", { class: "btn", type: "submit", "data-testid": "workflow-share" }, "Share");
    const form = h("form", { class: "workflow-share" }, username, role, button, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = username.value.trim();
      if (!name) return;
      button.disabled = true;
      void this.options.api
        .shareWorkflow(workflow.id, name, role.value === "controller" ? "controller" : "viewer")
        .then((made) => setText(status, `Shared with ${made.username} (${made.role}).`))
        .catch((err: unknown) => setText(status, errorText(err)))
        .finally(() => (button.disabled = false));
    });
    return form;
  }
}
