// A workflow's replays, newest first: how each ended, when, its error, what it extracted and the files it downloaded.
// The last few show; "Show more" shows the rest the API returned.

import type { ApiClient } from "../../api/client";
import type { Id, WorkflowRun } from "../../api/types";
import { h, replaceChildren } from "../../dom";
import { formatBytes } from "../../format";
import { errorText } from "../../errors";
import { outputsView, workflowRunLine } from "./format";

const SHOWN_FIRST = 3;

function outputsBlock(run: WorkflowRun): HTMLElement | null {
  const view = outputsView(run.outputs);
  if (!view) return null;
  const pre = h("pre", { class: "wf-outputs", "data-testid": "workflow-run-outputs" }, view.text);
  if (!view.long) return h("div", { class: "wf-outputs-block" }, h("span", { class: "record-detail" }, view.summary), pre);
  return h("details", { class: "wf-outputs-block" }, h("summary", null, view.summary), pre);
}

function downloadsBlock(run: WorkflowRun): HTMLElement | null {
  const files = run.downloads ?? [];
  if (!files.length) return null;
  return h(
    "div",
    { class: "wf-downloads", "data-testid": "workflow-run-downloads" },
    h("span", { class: "record-detail" }, "Downloaded: "),
    ...files.map((file) =>
      h("a", { href: file.url, download: file.name, title: formatBytes(file.size) }, file.name),
    ),
  );
}

function runItem(run: WorkflowRun): HTMLElement {
  const finished = run.finished_at ? new Date(run.finished_at).toLocaleString() : "";
  return h(
    "li",
    { class: "wf-run", "data-testid": "workflow-run-item", "data-status": run.status },
    h("a", { href: `/c/${run.conversation}`, title: finished ? `Finished ${finished}` : null }, workflowRunLine(run)),
    run.error ? h("span", { class: "record-detail", "data-testid": "workflow-run-error" }, ` — ${run.error}`) : null,
    outputsBlock(run),
    downloadsBlock(run),
  );
}

export class WorkflowHistory {
  readonly el: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly more: HTMLButtonElement;
  private runs: WorkflowRun[] = [];
  private expanded = false;

  constructor(
    private readonly api: ApiClient,
    private readonly workflowId: Id,
  ) {
    this.list = h("ul", { class: "workflow-runs", "data-testid": "workflow-runs" });
    this.more = h("button", { class: "link-button", type: "button", "data-testid": "workflow-runs-more", hidden: true });
    this.more.addEventListener("click", () => {
      this.expanded = !this.expanded;
      this.render();
    });
    this.el = h("div", { class: "wf-history" }, this.list, this.more);
  }

  async load(): Promise<void> {
    try {
      this.runs = await this.api.listWorkflowRuns(this.workflowId);
    } catch (err) {
      replaceChildren(this.list, h("li", { class: "record-detail" }, `Could not load the replays: ${errorText(err)}`));
      return;
    }
    this.render();
  }

  private render(): void {
    const shown = this.expanded ? this.runs : this.runs.slice(0, SHOWN_FIRST);
    replaceChildren(this.list, ...shown.map(runItem));
    const hidden = this.runs.length - SHOWN_FIRST;
    this.more.hidden = hidden <= 0;
    this.more.textContent = this.expanded ? "Show fewer" : `Show ${hidden} more`;
  }
}
