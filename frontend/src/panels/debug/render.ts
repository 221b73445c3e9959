// A run's model calls drawn for reading: each call's parameters, the tools offered (collapsed), its messages with
// their roles (the system prompt closed), the response, and the raw JSON built only when opened.

import type { ModelCall, RunDebug, SharedTab } from "../../api/types";
import { h, type Child } from "../../dom";
import { truncate } from "../../format";
import {
  asString,
  callSummary,
  readMessages,
  readParameters,
  readTools,
  readToolCalls,
  type DebugMessage,
  type DebugTool,
} from "./payload";

const MESSAGE_PREVIEW = 4000;

function collapsibleText(text: string, className: string): HTMLElement {
  const cut = truncate(text, MESSAGE_PREVIEW);
  const pre = h("pre", { class: className }, cut.text);
  if (!cut.cut) return pre;
  const more = h("button", { class: "link-button", type: "button" }, `Show all (${text.length.toLocaleString("en-US")} characters)`);
  more.addEventListener("click", () => {
    pre.textContent = text;
    more.remove();
  });
  return h("div", null, pre, more);
}

function renderToolCalls(calls: { name: string; arguments: string }[]): HTMLElement | null {
  if (!calls.length) return null;
  return h(
    "ul",
    { class: "debug-toolcalls" },
    ...calls.map((c) => h("li", null, h("code", null, `${c.name}(${truncate(c.arguments, 600).text})`))),
  );
}

function renderMessage(message: DebugMessage, index: number): HTMLElement {
  const body: Child[] = [];
  if (message.text) body.push(collapsibleText(message.text, "debug-text"));
  body.push(renderToolCalls(message.toolCalls));
  if (!message.text && !message.toolCalls.length) body.push(h("p", { class: "debug-empty" }, "(empty)"));
  const preview = truncate((message.text || message.toolCalls.map((c) => c.name).join(", ")).replace(/\s+/g, " "), 90);
  const details = h(
    "details",
    { class: "debug-msg", "data-role": message.role, "data-testid": "debug-message" },
    h(
      "summary",
      null,
      h("span", { class: `debug-role role-${message.role}` }, message.role),
      message.label ? h("span", { class: "debug-label" }, message.label) : null,
      message.images ? h("span", { class: "debug-label" }, `${message.images} image${message.images > 1 ? "s" : ""}`) : null,
      h("span", { class: "debug-preview" }, preview.text),
      h("span", { class: "debug-index" }, `#${index + 1}`),
    ),
    ...body,
  );
  // The system prompt is long and the same every call: closed until asked for.
  details.open = message.role !== "system";
  return details;
}

function renderTools(tools: DebugTool[]): HTMLElement | null {
  if (!tools.length) return null;
  return h(
    "details",
    { class: "debug-tools", "data-testid": "debug-tools" },
    h("summary", null, `Tools offered (${tools.length})`),
    h(
      "ul",
      null,
      ...tools.map((t) =>
        h(
          "li",
          null,
          h("code", { class: "debug-tool-name" }, t.name),
          t.description ? h("span", { class: "debug-tool-desc" }, t.description) : null,
          t.parameters
            ? h(
                "details",
                { class: "debug-tool-params" },
                h("summary", null, "Parameters"),
                h("pre", null, JSON.stringify(t.parameters, null, 2)),
              )
            : null,
        ),
      ),
    ),
  );
}

function renderResponse(response: Record<string, unknown>): HTMLElement {
  const parts: Child[] = [h("div", { class: "debug-section-label" }, "Response")];
  if (response.reasoning) parts.push(h("div", { class: "debug-reasoning" }, collapsibleText(asString(response.reasoning), "debug-text")));
  if (response.content) parts.push(collapsibleText(asString(response.content), "debug-text"));
  parts.push(renderToolCalls(readToolCalls(response.tool_calls)));
  if (response.error) parts.push(h("p", { class: "debug-error" }, asString(response.error)));
  if (!response.content && !response.tool_calls && !response.error && !response.reasoning)
    parts.push(h("p", { class: "debug-empty" }, "(no content)"));
  return h("div", { class: "debug-response", "data-testid": "debug-response" }, ...parts);
}

/** The raw JSON, built only when opened (payloads can be large). */
function rawJson(call: ModelCall): HTMLElement {
  const pre = h("pre", { class: "debug-raw" });
  const details = h("details", { class: "debug-raw-wrap" }, h("summary", null, "Raw JSON"), pre);
  details.addEventListener("toggle", () => {
    if (details.open && !pre.textContent) {
      pre.textContent = JSON.stringify({ request: call.request, response: call.response }, null, 2);
    }
  });
  return details;
}

function renderCall(call: ModelCall): HTMLElement {
  const request = call.request;
  const params = readParameters(request).filter(([key]) => key !== "model");
  return h(
    "section",
    { class: "debug-call", "data-testid": "debug-call" },
    h(
      "header",
      { class: "debug-call-head" },
      h("h3", null, `Call ${call.index + 1}`),
      h("span", { class: "debug-call-meta" }, callSummary(call)),
    ),
    params.length
      ? h(
          "div",
          { class: "debug-params" },
          ...params.map(([k, v]) => h("span", { class: "debug-param" }, h("b", null, k), " ", truncate(v, 120).text)),
        )
      : null,
    renderTools(readTools(request)),
    h("div", { class: "debug-section-label" }, `Messages (${readMessages(request).length})`),
    h("div", { class: "debug-messages" }, ...readMessages(request).map(renderMessage)),
    renderResponse(call.response),
    rawJson(call),
  );
}

function renderSharedTabs(tabs: SharedTab[]): HTMLElement | null {
  if (!tabs.length) return null;
  return h(
    "div",
    { class: "debug-shared" },
    h("div", { class: "debug-section-label" }, "Tabs shared with this run"),
    h(
      "ul",
      null,
      ...tabs.map((t) => h("li", null, h("span", null, t.title || t.id), t.url ? h("code", null, t.url) : null)),
    ),
  );
}

/** What the model saw in a run: the tabs shared with it, then each model call. */
export function renderDebug(debug: RunDebug): Child[] {
  if (!debug.model_calls.length) {
    return [
      renderSharedTabs(debug.shared_tabs),
      h("p", { class: "debug-empty" }, "This run made no model calls (an action run by hand, or it ended before asking the model)."),
    ];
  }
  return [renderSharedTabs(debug.shared_tabs), ...debug.model_calls.map(renderCall)];
}
