import { describe, expect, it } from "vitest";
import type { Conversation } from "../api/types";
import { withConversation } from "./lists";

function conversation(id: number, updatedAt: string, title = `c${id}`): Conversation {
  return { id, title, created_at: updatedAt, updated_at: updatedAt, last_run_status: null };
}

describe("withConversation", () => {
  it("adds a new conversation at its place by latest activity", () => {
    const list = [conversation(1, "2025-01-02T00:00:00Z"), conversation(2, "2025-01-01T00:00:00Z")];
    const next = withConversation(list, conversation(3, "2025-01-03T00:00:00Z"));
    expect(next.map((c) => c.id)).toEqual([3, 1, 2]);
  });

  it("replaces a known conversation (a new title, newer activity) without duplicating it", () => {
    const list = [conversation(1, "2025-01-02T00:00:00Z"), conversation(2, "2025-01-01T00:00:00Z")];
    const next = withConversation(list, conversation(2, "2025-01-05T00:00:00Z", "Renamed"));
    expect(next.map((c) => [c.id, c.title])).toEqual([
      [2, "Renamed"],
      [1, "c1"],
    ]);
  });
});
