// Reading the OpenAI-style payloads a run sent to the model and got back: each message with its role, text,
// images and tool calls; the tools offered; the request's other parameters; a one-line summary of a call.

import type { ModelCall } from "../../api/types";
import { formatDuration } from "../../format";

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

export function asString(value: unknown): string {
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
