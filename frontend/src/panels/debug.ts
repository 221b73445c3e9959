// "What the model saw": a run's model calls (GET /api/runs/<id>/debug/) in a readable modal — each call's
// messages with their roles, the tool list collapsed, the request's other parameters, and the response.

import type { Id, RunDebug } from "../api/types";
import { h, replaceChildren } from "../dom";
import { errorText } from "../errors";
import { renderDebug } from "./debug/render";
import { Modal } from "./modal";

/** Opens the modal for one run and loads its calls; Escape, the close button or a click outside closes it. */
export function openRunDebug(runId: Id, load: (runId: Id) => Promise<RunDebug>, label = ""): () => void {
  const body = h(
    "div",
    { class: "modal-body" },
    h("div", { class: "chat-loading" }, h("span", { class: "spinner" }), "Loading what the model saw…"),
  );
  const modal = new Modal({
    className: "modal-wide",
    titleId: `debug-title-${runId}`,
    title: "What the model saw",
    subtitle: label,
    testid: "run-debug-modal",
    closeTestid: "run-debug-close",
    body,
  });
  modal.open();

  load(runId).then(
    (debug) => {
      if (modal.isOpen) replaceChildren(body, ...renderDebug(debug));
    },
    (err: unknown) => {
      if (!modal.isOpen) return;
      const text = errorText(err);
      replaceChildren(body, h("div", { class: "form-error", role: "alert" }, `Could not load the model calls: ${text}`));
    },
  );
  return () => modal.close();
}
