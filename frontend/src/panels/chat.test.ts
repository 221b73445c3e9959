import { describe, expect, it } from "vitest";
import { messageLabel } from "./chat";

describe("message labels", () => {
  it("names a teammate who wrote a message, and says You for mine and older messages", () => {
    expect(messageLabel("user", "bob", "ada")).toBe("bob");
    expect(messageLabel("user", "ada", "ada")).toBe("You");
    expect(messageLabel("user", null, "ada")).toBe("You");
    expect(messageLabel("assistant", null, "ada")).toBe("Hive agent");
  });
});
