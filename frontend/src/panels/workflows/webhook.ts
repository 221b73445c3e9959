// The owner's completion webhook for one workflow: where a replay's end is POSTed (signed), the signing secret
// shown once when the address is set, and the delivery log (each replay's delivery with every attempt).

import type { ApiClient } from "../../api/client";
import type { WebhookDelivery, Workflow } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { relativeTime } from "../../format";

/** "Delivered after 2 attempts · run 31 · 3 minutes ago", and the last attempt's error when it failed. */
export function deliveryLine(delivery: WebhookDelivery, now = Date.now()): string {
  const status = delivery.status.charAt(0).toUpperCase() + delivery.status.slice(1);
  const tries = `${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"}`;
  const event = typeof delivery.payload.event === "string" ? delivery.payload.event : "";
  const what = event.endsWith("confirmation_requested") ? " · asked for a yes" : "";
  const last = delivery.log.at(-1);
  const why = delivery.status !== "delivered" && last?.error ? ` · ${last.error}` : "";
  return `${status} after ${tries} · run ${delivery.run}${what} · ${relativeTime(delivery.created_at, now)}${why}`;
}

export class WorkflowWebhook {
  readonly el: HTMLDetailsElement;
  private readonly current: HTMLElement;
  private readonly secret: HTMLElement;
  private readonly status: HTMLElement;
  private readonly log: HTMLUListElement;

  constructor(
    private readonly api: ApiClient,
    private workflow: Workflow,
  ) {
    this.current = h("p", { class: "record-detail", "data-testid": "workflow-webhook-url" });
    this.secret = h("p", { class: "record-detail", "data-testid": "workflow-webhook-secret" });
    this.status = h("p", { class: "form-error", role: "alert", "data-testid": "workflow-webhook-error" });
    this.log = h("ul", { class: "wf-deliveries", "data-testid": "workflow-deliveries" });
    this.el = h(
      "details",
      { class: "wf-details", "data-testid": "workflow-webhook" },
      h("summary", null, "Webhook"),
      this.current,
      this.form(),
      this.secret,
      this.status,
      h("h4", { class: "wf-subtitle" }, "Deliveries"),
      this.log,
    );
    this.showUrl();
    this.el.addEventListener("toggle", () => {
      if (this.el.open) void this.load();
    });
  }

  private showUrl(): void {
    const url = this.workflow.webhook_url;
    setText(this.current, url ? `When a replay ends, Hive POSTs to ${url}.` : "No webhook: nothing is told when a replay ends.");
  }

  async load(): Promise<void> {
    try {
      const deliveries = await this.api.listWebhookDeliveries(this.workflow.id);
      if (deliveries.length === 0) {
        replaceChildren(this.log, h("li", { class: "record-detail" }, "Nothing sent yet."));
      } else {
        replaceChildren(this.log, ...deliveries.slice(0, 10).map((d) => h("li", { "data-testid": "workflow-delivery", "data-status": d.status }, deliveryLine(d))));
      }
    } catch (err) {
      setText(this.status, `Could not load the deliveries: ${errorText(err)}`);
    }
  }

  private form(): HTMLElement {
    const input = h("input", { class: "input", type: "url", placeholder: "https://…", "aria-label": "Webhook address", "data-testid": "workflow-webhook-input" });
    const save = h("button", { class: "btn btn-secondary btn-sm", type: "submit", "data-testid": "workflow-webhook-save" }, "Set");
    const remove = h("button", { class: "btn btn-ghost btn-sm", type: "button", "data-testid": "workflow-webhook-remove" }, "Remove");
    const form = h("form", { class: "workflow-share" }, input, save, remove);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      setText(this.status, "");
      void this.api
        .setWorkflowWebhook(this.workflow.id, input.value.trim())
        .then((hook) => {
          this.workflow = { ...this.workflow, webhook_url: hook.url };
          input.value = "";
          this.showUrl();
          setText(this.secret, `Signing secret (shown this once; check X-Hive-Signature-256 with it): ${hook.secret}`);
        })
        .catch((err: unknown) => setText(this.status, errorText(err)));
    });
    remove.addEventListener("click", () => {
      setText(this.status, "");
      void this.api
        .removeWorkflowWebhook(this.workflow.id)
        .then(() => {
          this.workflow = { ...this.workflow, webhook_url: "" };
          setText(this.secret, "");
          this.showUrl();
        })
        .catch((err: unknown) => setText(this.status, errorText(err)));
    });
    return form;
  }
}
