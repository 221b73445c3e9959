// Settings → Workflows: the user's saved workflows (GET /api/workflows/), each drawn by a WorkflowItem: run form,
// steps, versions, replays with what they extracted, and for the owner the editor, schedules, sharing and Delete.

import type { ApiClient } from "../../api/client";
import type { Id } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { WorkflowItem } from "./item";

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
    this.listEl = h("ul", { class: "record-list workflow-list", "data-testid": "workflow-list" });
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
      const options = { ...this.options, deleted: () => void this.load() };
      replaceChildren(this.listEl, ...workflows.map((workflow) => new WorkflowItem(workflow, options).el));
    } catch (err) {
      setText(this.status, `Could not load your workflows: ${errorText(err)}`);
    }
  }
}
