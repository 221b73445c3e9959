import { describe, expect, it } from "vitest";
import { callSummary, readMessages, readParameters, readTools } from "./debug/payload";

describe("what the model saw", () => {
  const request = {
    model: "gpt-4o-mini",
    temperature: 0.2,
    messages: [
      { role: "system", content: "You are Hive." },
      {
        role: "user",
        content: [
          { type: "text", text: "Find flights" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,[123 characters]" } },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "navigate", arguments: '{"url": "https://x.example"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "Loaded." },
    ],
    tools: [{ type: "function", function: { name: "navigate", description: "Open a URL", parameters: { type: "object" } } }],
  };

  it("reads each message with its role, text, images and tool calls", () => {
    const messages = readMessages(request);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(messages[1]).toMatchObject({ text: "Find flights\n[image]", images: 1 });
    expect(messages[2]?.toolCalls).toEqual([{ name: "navigate", arguments: '{"url":"https://x.example"}' }]);
    expect(messages[3]).toMatchObject({ label: "call c1", text: "Loaded." });
    expect(readMessages({})).toEqual([]);
  });

  it("lists the tools and the other parameters", () => {
    expect(readTools(request)).toEqual([{ name: "navigate", description: "Open a URL", parameters: { type: "object" } }]);
    expect(readParameters(request)).toEqual([
      ["model", "gpt-4o-mini"],
      ["temperature", "0.2"],
    ]);
  });

  it("sums a call up in one line", () => {
    const summary = callSummary({
      index: 0,
      request,
      response: { content: "", finish_reason: "tool_calls", usage: { prompt_tokens: 900, completion_tokens: 12 } },
      duration_ms: 1500,
    });
    expect(summary).toBe("gpt-4o-mini · 1.5 s · finish: tool_calls · 900 in · 12 out");
  });
});
