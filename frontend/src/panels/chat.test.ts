import { describe, expect, it } from "vitest";
import type { Run } from "../api/types";
import { insertAtSelection } from "./chat/composer";
import { runStatusText } from "./chat/header";
import { messageLabel } from "./chat/timeline";

describe("message labels", () => {
  it("names a teammate who wrote a message, and says You for mine and older messages", () => {
    expect(messageLabel("user", "bob", "ada")).toBe("bob");
    expect(messageLabel("user", "ada", "ada")).toBe("You");
    expect(messageLabel("user", null, "ada")).toBe("You");
    expect(messageLabel("assistant", null, "ada")).toBe("Hive agent");
  });
});

describe("run status badge", () => {
  const run = (status: Run["status"], queue_position: number | null = null): Run => ({
    id: 1, conversation: 1, status, error: "", prompt_tokens: 0, completion_tokens: 0,
    created_at: "", started_at: null, finished_at: null, queue_position,
  });

  it("says how many runs wait ahead while queued", () => {
    expect(runStatusText(run("queued", 4))).toBe("queued · 3 ahead");
    expect(runStatusText(run("queued", 1))).toBe("queued");
    expect(runStatusText(run("running"))).toBe("running");
    expect(runStatusText(run("waiting"))).toBe("Waiting for you");
    expect(runStatusText(undefined)).toBe("");
  });
});

describe("insertAtSelection", () => {
  it("spaces a file mention from the words around it and puts the caret after it", () => {
    expect(insertAtSelection("upload to", 6, 6, "X")).toEqual({ value: "upload X to", caret: 8 });
    expect(insertAtSelection("", 0, 0, "X")).toEqual({ value: "X", caret: 1 });
    expect(insertAtSelection("a b", 2, 3, "X")).toEqual({ value: "a X", caret: 3 });
  });
});
