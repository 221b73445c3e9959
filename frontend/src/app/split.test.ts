import { describe, expect, it } from "vitest";
import { MIN_CHAT_PX, MIN_LIVE_PX, clampLiveWidth, liveColumn, liveShareKey, readShare } from "./split";

describe("the chat | browser split", () => {
  it("keeps both sides usable whatever was dragged", () => {
    expect(clampLiveWidth(0.5, 1200)).toBe(600);
    expect(clampLiveWidth(0.05, 1200)).toBe(MIN_LIVE_PX);
    expect(clampLiveWidth(0.99, 1200)).toBe(1200 - MIN_CHAT_PX);
    // Too narrow for both minimums: the browser keeps its own.
    expect(clampLiveWidth(0.5, 500)).toBe(MIN_LIVE_PX);
  });

  it("becomes a column the stylesheet keeps within the same minimums as the window changes", () => {
    expect(liveColumn(0.5)).toBe(
      `clamp(${MIN_LIVE_PX}px, calc((100% - var(--sidebar-w)) * 0.5000), calc((100% - var(--sidebar-w)) - ${MIN_CHAT_PX}px))`,
    );
  });

  it("is remembered per user, and a missing or broken value means the default", () => {
    const storage = new Map<string, string>([
      [liveShareKey("ada"), "0.62"],
      [liveShareKey("bob"), "garbage"],
      [liveShareKey("eve"), ""],
    ]);
    const reader = { getItem: (key: string) => storage.get(key) ?? null };
    expect(readShare(reader, liveShareKey("ada"))).toBe(0.62);
    expect(readShare(reader, liveShareKey("bob"))).toBeNull();
    expect(readShare(reader, liveShareKey("eve"))).toBeNull();
    expect(readShare(reader, liveShareKey("nobody"))).toBeNull();
    expect(readShare(null, liveShareKey("ada"))).toBeNull();
    const throwing = {
      getItem: (): string | null => {
        throw new Error("denied");
      },
    };
    expect(readShare(throwing, liveShareKey("ada"))).toBeNull();
  });
});
