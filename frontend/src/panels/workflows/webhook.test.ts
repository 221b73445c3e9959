import { describe, expect, it } from "vitest";

import type { WebhookDelivery } from "../../api/types";
import { deliveryLine } from "./webhook";

const NOW = Date.parse("2026-11-25T12:00:00Z");

function delivery(overrides: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    id: 1,
    run: 31,
    url: "https://hooks.example/done",
    status: "delivered",
    attempts: 1,
    log: [{ at: "2026-11-25T11:57:00Z", status_code: 204, error: "", ms: 12 }],
    payload: { event: "workflow.run.finished" },
    created_at: "2026-11-25T11:57:00Z",
    updated_at: "2026-11-25T11:57:00Z",
    ...overrides,
  };
}

describe("deliveryLine", () => {
  it("says how it went, for which run and when", () => {
    expect(deliveryLine(delivery({}), NOW)).toBe("Delivered after 1 attempt · run 31 · 3 min ago");
  });

  it("gives the last attempt's error while it is not delivered", () => {
    const failing = delivery({
      status: "failed",
      attempts: 5,
      log: [{ at: "2026-11-25T11:57:00Z", status_code: 500, error: "the receiver answered 500", ms: 8 }],
    });
    expect(deliveryLine(failing, NOW)).toBe(
      "Failed after 5 attempts · run 31 · 3 min ago · the receiver answered 500",
    );
  });

  it("tells a question for a yes from a finished replay", () => {
    const asked = delivery({ payload: { event: "workflow.run.confirmation_requested" } });
    expect(deliveryLine(asked, NOW)).toContain("run 31 · asked for a yes ·");
  });
});
