// The owner shares a workflow by username, as a viewer (sees it) or a controller (also runs it).

import type { ApiClient } from "../../api/client";
import type { Workflow } from "../../api/types";
import { h, setText } from "../../dom";
import { errorText } from "../../errors";

export function shareForm(api: ApiClient, workflow: Workflow): HTMLFormElement {
  const username = h("input", { class: "input", placeholder: "Username", "aria-label": "Share with", "data-testid": "workflow-share-user" });
  const role = h(
    "select",
    { class: "input", "aria-label": "Role", "data-testid": "workflow-share-role" },
    h("option", { value: "viewer" }, "Viewer: sees it"),
    h("option", { value: "controller" }, "Controller: also runs it"),
  );
  const status = h("span", { class: "record-detail", role: "status", "data-testid": "workflow-share-status" });
  const button = h("button", { class: "btn btn-secondary", type: "submit", "data-testid": "workflow-share" }, "Share");
  const form = h("form", { class: "workflow-share" }, username, role, button, status);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = username.value.trim();
    if (!name) return;
    button.disabled = true;
    void api
      .shareWorkflow(workflow.id, name, role.value === "controller" ? "controller" : "viewer")
      .then((made) => setText(status, `Shared with ${made.username} (${made.role}).`))
      .catch((err: unknown) => setText(status, errorText(err)))
      .finally(() => (button.disabled = false));
  });
  return form;
}
