import { describe, expect, it } from "vitest";
import { LatestWins, keyToInput, mouseButton, pointToFraction, wheelPixels } from "./liveview";

const picture = { width: 1280, height: 800 };

describe("pointToFraction", () => {
  it("maps corners and centre of a picture that fills its box exactly", () => {
    const box = { left: 100, top: 50, width: 640, height: 400 };
    expect(pointToFraction(100, 50, box, picture)).toEqual({ x: 0, y: 0 });
    expect(pointToFraction(420, 250, box, picture)).toEqual({ x: 0.5, y: 0.5 });
    expect(pointToFraction(740, 450, box, picture)).toEqual({ x: 1, y: 1 });
  });

  it("accounts for letterboxing when the box is taller than the picture (centred)", () => {
    // 640 wide → the picture is 400 tall, centred in 600: bands of 100 above and below.
    const box = { left: 0, top: 0, width: 640, height: 600 };
    expect(pointToFraction(320, 100, box, picture)).toEqual({ x: 0.5, y: 0 });
    expect(pointToFraction(160, 400, box, picture)).toEqual({ x: 0.25, y: 0.75 });
    expect(pointToFraction(320, 50, box, picture)).toBeNull();
    expect(pointToFraction(320, 550, box, picture)).toBeNull();
  });

  it("accounts for pillarboxing when the box is wider than the picture", () => {
    // 400 tall → the picture is 640 wide, centred in 1000: bands of 180 left and right.
    const box = { left: 0, top: 0, width: 1000, height: 400 };
    expect(pointToFraction(180, 0, box, picture)).toEqual({ x: 0, y: 0 });
    expect(pointToFraction(500, 200, box, picture)).toEqual({ x: 0.5, y: 0.5 });
    expect(pointToFraction(100, 200, box, picture)).toBeNull();
  });

  it("follows object-position: top", () => {
    const box = { left: 0, top: 0, width: 640, height: 600 };
    expect(pointToFraction(320, 200, box, picture, { x: 0.5, y: 0 })).toEqual({ x: 0.5, y: 0.5 });
    expect(pointToFraction(320, 450, box, picture, { x: 0.5, y: 0 })).toBeNull();
  });

  it("refuses empty boxes and pictures", () => {
    expect(pointToFraction(0, 0, { left: 0, top: 0, width: 0, height: 0 }, picture)).toBeNull();
    expect(pointToFraction(0, 0, { left: 0, top: 0, width: 10, height: 10 }, { width: 0, height: 0 })).toBeNull();
  });
});

describe("keyToInput", () => {
  const key = (
    k: string,
    mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {},
  ) => keyToInput({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

  it("sends printable characters as text, as typed", () => {
    expect(key("a")).toEqual({ kind: "text", text: "a" });
    expect(key("A", { shiftKey: true })).toEqual({ kind: "text", text: "A" });
    expect(key(" ")).toEqual({ kind: "text", text: " " });
    expect(key("é")).toEqual({ kind: "text", text: "é" });
    expect(key("😀")).toEqual({ kind: "text", text: "😀" });
  });

  it("sends named keys and shortcuts as key presses with modifiers", () => {
    expect(key("Enter")).toEqual({ kind: "key", key: "Enter", modifiers: [] });
    expect(key("Backspace")).toEqual({ kind: "key", key: "Backspace", modifiers: [] });
    expect(key("a", { ctrlKey: true })).toEqual({ kind: "key", key: "a", modifiers: ["control"] });
    expect(key("ArrowLeft", { shiftKey: true, altKey: true })).toEqual({
      kind: "key",
      key: "ArrowLeft",
      modifiers: ["alt", "shift"],
    });
  });

  it("sends nothing for lone modifiers, dead keys, IME composition and keys the server can't replay", () => {
    expect(key("Shift", { shiftKey: true })).toBeNull();
    expect(key("ContextMenu")).toBeNull();
    expect(key("AudioVolumeUp")).toBeNull();
    expect(key("Control", { ctrlKey: true })).toBeNull();
    expect(key("Dead")).toBeNull();
    expect(
      keyToInput({ key: "a", altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, isComposing: true }),
    ).toBeNull();
  });
});

describe("mouse and wheel", () => {
  it("names buttons", () => {
    expect([0, 1, 2, 7].map(mouseButton)).toEqual(["left", "middle", "right", "left"]);
  });
  it("converts wheel lines and pages to pixels", () => {
    expect(wheelPixels(0, 120, 0)).toEqual({ dx: 0, dy: 120 });
    expect(wheelPixels(1, 3, 1)).toEqual({ dx: 16, dy: 48 });
    expect(wheelPixels(0, 1, 2, 800)).toEqual({ dx: 0, dy: 800 });
  });
});

describe("LatestWins (frames)", () => {
  function setup() {
    const decodes: { input: number; resolve: (v: string) => void }[] = [];
    const drawn: string[] = [];
    const released: string[] = [];
    const frames: (() => void)[] = [];
    const settled: number[] = [];
    const pipeline = new LatestWins<number, string>(
      (input) => new Promise((resolve) => decodes.push({ input, resolve })),
      (out) => drawn.push(out),
      (out) => released.push(out),
      (cb) => frames.push(cb),
      (input) => settled.push(input),
    );
    const flush = () => new Promise((r) => setTimeout(r, 0));
    return { pipeline, decodes, drawn, released, frames, settled, flush };
  }

  it("skips frames that arrive while one is decoding and draws only the newest", async () => {
    const { pipeline, decodes, drawn, frames, settled, flush } = setup();
    pipeline.push(1);
    pipeline.push(2);
    pipeline.push(3);
    expect(settled).toEqual([2]); // overtaken before it was decoded
    expect(decodes.map((d) => d.input)).toEqual([1]);
    decodes[0]!.resolve("bitmap1");
    await flush();
    // Frame 2 was overtaken by 3 and never decoded.
    expect(decodes.map((d) => d.input)).toEqual([1, 3]);
    decodes[1]!.resolve("bitmap3");
    await flush();
    // Both decoded before the animation frame came: only the newest is drawn, once.
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(drawn).toEqual(["bitmap3"]);
    // Every frame is settled exactly once, so the server (which paces on acks) never waits in vain.
    expect([...settled].sort()).toEqual([1, 2, 3]);
  });

  it("settles a frame that fails to decode", async () => {
    const { pipeline, decodes, settled, flush } = setup();
    pipeline.push(1);
    (decodes[0] as unknown as { resolve: (v: unknown) => void }).resolve(Promise.reject(new Error("corrupt")));
    await flush();
    expect(settled).toEqual([1]);
  });

  it("releases pictures it never draws", async () => {
    const { pipeline, decodes, released, frames, flush } = setup();
    pipeline.push(1);
    decodes[0]!.resolve("a");
    await flush();
    pipeline.push(2);
    decodes[1]!.resolve("b");
    await flush();
    expect(released).toEqual(["a"]);
    frames[0]!();
    expect(released).toEqual(["a", "b"]);
  });

  it("drops what is in flight on reset (switching conversations)", async () => {
    const { pipeline, decodes, drawn, released, frames, flush } = setup();
    pipeline.push(1);
    pipeline.reset();
    decodes[0]!.resolve("stale");
    await flush();
    expect(frames).toHaveLength(0);
    expect(drawn).toEqual([]);
    expect(released).toEqual(["stale"]);
  });
});
