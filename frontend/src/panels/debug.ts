// "What the model saw": a run's model calls (GET /api/runs/<id>/debug/) in a readable modal — each call's
// messages with their roles, the tool list collapsed, the request's other parameters, and the response.

import { errorText } from "../errors";
import type { Id, ModelCall, RunDebug, SharedTab } from "../api/types";
import { h, icon, ICONS, replaceChildren, type Child } from "../dom";
import { formatDuration, truncate } from "../format";

// --- Pure reading of the OpenAI-style payloads (unit-tested) ---

export interface DebugMessage {
  role: string;
  /** A tool message's call id, or a message's name. */
  label: string;
  /** Text parts in order; an image part reads as "[image …]". */
  text: string;
  images: number;
  toolCalls: { name: string; arguments: string }[];
}

export interface DebugTool {
  name: string;
  description: string;
  parameters: unknown;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function asString(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value); // values parsed from JSON always serialise
}

/** Arguments of a tool call, pretty when they are JSON (they usually come as a JSON string). */
function readableArguments(value: unknown): string {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value));
    } catch {
      return value;
    }
  }
  return asString(value);
}

export function readToolCalls(value: unknown): { name: string; arguments: string }[] {
  if (!Array.isArray(value)) return [];
  return value.map((call) => {
    const record = asRecord(call) ?? {};
    const fn = asRecord(record.function) ?? record;
    return { name: asString(fn.name) || "?", arguments: readableArguments(fn.arguments) };
  });
}

export function readMessages(request: Record<string, unknown>): DebugMessage[] {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  return messages.map((raw) => {
    const m = asRecord(raw) ?? {};
    let text: string;
    let images = 0;
    if (Array.isArray(m.content)) {
      const parts: string[] = [];
      for (const part of m.content) {
        const p = asRecord(part);
        if (p?.type === "text") parts.push(asString(p.text));
        else if (p?.type === "image_url") {
          images += 1;
          parts.push("[image]");
        } else parts.push(asString(part));
      }
      text = parts.join("\n");
    } else {
      text = asString(m.content);
    }
    const label = m.tool_call_id ? `call ${asString(m.tool_call_id)}` : m.name ? asString(m.name) : "";
    return { role: asString(m.role) || "?", label, text, images, toolCalls: readToolCalls(m.tool_calls) };
  });
}

export function readTools(request: Record<string, unknown>): DebugTool[] {
  const tools = Array.isArray(request.tools) ? request.tools : [];
  return tools.map((raw) => {
    const t = asRecord(raw) ?? {};
    const fn = asRecord(t.function) ?? t;
    return { name: asString(fn.name) || "?", description: asString(fn.description), parameters: fn.parameters ?? null };
  });
}

/** The request's other parameters (model, temperature, stream …) as "key: value" pairs. */
export function readParameters(request: Record<string, unknown>): [string, string][] {
  return Object.entries(request)
    .filter(([key]) => key !== "messages" && key !== "tools")
    .map(([key, value]) => [key, asString(value)]);
}

export function callSummary(call: ModelCall): string {
  const response = call.response;
  const usage = asRecord(response.usage);
  const parts = [
    asString(call.request.model),
    formatDuration(call.duration_ms),
    response.finish_reason ? `finish: ${asString(response.finish_reason)}` : "",
    usage ? `${asString(usage.prompt_tokens)} in · ${asString(usage.completion_tokens)} out` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

// --- The modal ---

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

function renderDebug(debug: RunDebug): Child[] {
  if (!debug.model_calls.length) {
    return [
      renderSharedTabs(debug.shared_tabs),
      h("p", { class: "debug-empty" }, "This run made no model calls (an action run by hand, or it ended before asking the model)."),
    ];
  }
  return [renderSharedTabs(debug.shared_tabs), ...debug.model_calls.map(renderCall)];
}

/** Opens the modal for one run and loads its calls; Escape, the close button or a click outside closes it. */
export function openRunDebug(runId: Id, load: (runId: Id) => Promise<RunDebug>): () => void {
  const previousFocus = document.activeElement as HTMLElement | null;
  const body = h(
    "div",
    { class: "modal-body" },
    h("div", { class: "chat-loading" }, h("span", { class: "spinner" }), "Loading what the model saw…"),
  );
  const closeButton = h(
    "button",
    { class: "btn btn-ghost btn-icon", type: "button", "aria-label": "Close", title: "Close", "data-testid": "run-debug-close" },
    icon(ICONS.close, 18),
  );
  const dialog = h(
    "div",
    {
      class: "modal modal-wide",
      role: "dialog",
      "aria-modal": "true",
      "aria-labelledby": `debug-title-${runId}`,
      "data-testid": "run-debug-modal",
    },
    h(
      "header",
      { class: "modal-head" },
      h("h2", { id: `debug-title-${runId}` }, "What the model saw"),
      h("span", { class: "modal-sub" }, `Run ${runId}`),
      h("span", { class: "step-spacer" }),
      closeButton,
    ),
    body,
  );
  const overlay = h("div", { class: "modal-backdrop" }, dialog);
  const close = (): void => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
    previousFocus?.focus();
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") close();
  };
  overlay.addEventListener("mousedown", (e) => {
    if (e.target === overlay) close();
  });
  closeButton.addEventListener("click", close);
  document.addEventListener("keydown", onKey);
  document.body.appendChild(overlay);
  closeButton.focus();

  load(runId).then(
    (debug) => {
      if (overlay.isConnected) replaceChildren(body, ...renderDebug(debug));
    },
    (err: unknown) => {
      if (!overlay.isConnected) return;
      const text = errorText(err);
      replaceChildren(body, h("div", { class: "form-error", role: "alert" }, `Could not load the model calls: ${text}`));
    },
  );
  return close;
}
