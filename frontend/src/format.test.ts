import { describe, expect, it } from "vitest";
import { RUN_STATUS_LABEL, formatBytes, labelFor } from "./format";
import type { RunStatus } from "./api/types";

describe("formatBytes", () => {
  it("uses the unit that keeps the number short", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1000)).toBe("1 KB");
    expect(formatBytes(1500)).toBe("1.5 KB");
    expect(formatBytes(12_345)).toBe("12 KB");
    expect(formatBytes(999_600)).toBe("1 MB");
    expect(formatBytes(3_400_000)).toBe("3.4 MB");
    expect(formatBytes(20_000_000)).toBe("20 MB");
    expect(formatBytes(-1)).toBe("");
  });
});

describe("labelFor", () => {
  it("labels a known status and shows one newer than the dashboard as itself", () => {
    expect(labelFor(RUN_STATUS_LABEL, "waiting")).toBe(RUN_STATUS_LABEL.waiting);
    expect(labelFor(RUN_STATUS_LABEL, "paused" as RunStatus)).toBe("paused");
  });
});
