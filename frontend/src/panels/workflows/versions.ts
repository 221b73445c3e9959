// A workflow's versions in a <details>, newest first: number, note, time, and the diff of its steps against the
// version before it (added lines green, removed red). Loaded when first opened.

import type { ApiClient } from "../../api/client";
import type { Id, WorkflowVersion } from "../../api/types";
import { h, replaceChildren } from "../../dom";
import { errorText } from "../../errors";
import { diffLineKind, versionLine } from "./format";

function versionItem(version: WorkflowVersion): HTMLElement {
  const diff = version.changes.length
    ? h(
        "pre",
        { class: "wf-diff", "data-testid": "workflow-version-changes" },
        ...version.changes.map((line) => h("span", { class: `wf-diff-line ${diffLineKind(line)}` }, line)),
      )
    : null;
  return h(
    "li",
    { class: "wf-version", "data-testid": "workflow-version", "data-number": String(version.number) },
    h("span", null, versionLine(version)),
    diff,
  );
}

export class WorkflowVersions {
  readonly el: HTMLDetailsElement;
  private readonly list: HTMLOListElement;
  private loaded = false;

  constructor(
    private readonly api: ApiClient,
    private readonly workflowId: Id,
    current: number | null,
  ) {
    this.list = h("ol", { class: "wf-versions" }, h("li", { class: "record-detail" }, "Loading…"));
    this.el = h(
      "details",
      { class: "wf-details", "data-testid": "workflow-versions" },
      h("summary", null, current ? `Versions (this is version ${current})` : "Versions"),
      this.list,
    );
    this.el.addEventListener("toggle", () => {
      if (this.el.open && !this.loaded) void this.load();
    });
  }

  private async load(): Promise<void> {
    this.loaded = true;
    try {
      const versions = await this.api.listWorkflowVersions(this.workflowId);
      replaceChildren(this.list, ...versions.map(versionItem));
    } catch (err) {
      this.loaded = false;
      replaceChildren(this.list, h("li", { class: "record-detail" }, `Could not load the versions: ${errorText(err)}`));
    }
  }
}
