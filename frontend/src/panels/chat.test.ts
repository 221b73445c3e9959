import { describe, expect, it } from "vitest";
import type { Run } from "../api/types";
import { messageLabel, runStatusText } from "./chat";

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
