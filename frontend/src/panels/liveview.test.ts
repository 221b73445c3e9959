import { describe, expect, it } from "vitest";
import { LatestWins } from "./liveview/frames";
import {
  DRAG_THRESHOLD_PX,
  PointerGesture,
  isDrag,
  keyToInput,
  mouseButton,
  pointToFraction,
  wheelPixels,
} from "./liveview/input";

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

  it("clamps to the nearest edge when asked (a drag that leaves the picture)", () => {
    const box = { left: 100, top: 50, width: 640, height: 400 };
    expect(pointToFraction(50, 250, box, picture, undefined, true)).toEqual({ x: 0, y: 0.5 });
    expect(pointToFraction(900, 600, box, picture, undefined, true)).toEqual({ x: 1, y: 1 });
    expect(pointToFraction(420, 250, box, picture, undefined, true)).toEqual({ x: 0.5, y: 0.5 });
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

describe("click or drag", () => {
  it("is a drag only beyond the threshold, in any direction", () => {
    const from = { x: 100, y: 100 };
    expect(DRAG_THRESHOLD_PX).toBe(4);
    expect(isDrag(from, { x: 100, y: 100 })).toBe(false);
    expect(isDrag(from, { x: 104, y: 100 })).toBe(false);
    expect(isDrag(from, { x: 103, y: 103 })).toBe(true); // 4.24 px diagonally
    expect(isDrag(from, { x: 100, y: 95 })).toBe(true);
    expect(isDrag(from, { x: 110, y: 100 }, 20)).toBe(false);
  });

  const at = (x: number, y: number) => ({ x, y });

  it("sends one click for a press that barely moves", () => {
    const g = new PointerGesture();
    g.press(at(10, 10), at(0.1, 0.2), "left", ["shift"]);
    expect(g.active).toBe(true);
    expect(g.move(at(12, 11), at(0.11, 0.2))).toEqual([]);
    expect(g.move(at(13, 10), at(0.12, 0.2))).toEqual([]);
    expect(g.release(at(13, 10), at(0.12, 0.2))).toEqual([
      { kind: "click", x: 0.1, y: 0.2, button: "left", modifiers: ["shift"] },
    ]);
    expect(g.active).toBe(false);
  });

  it("turns a press that moves further into down, moves and up", () => {
    const g = new PointerGesture();
    g.press(at(10, 10), at(0.1, 0.1), "left");
    expect(g.move(at(12, 10), at(0.11, 0.1))).toEqual([]);
    // Past the threshold: the button goes down where the press started, then the pointer moves.
    expect(g.move(at(20, 10), at(0.2, 0.1))).toEqual([
      { kind: "down", x: 0.1, y: 0.1, button: "left", modifiers: [] },
      { kind: "move", x: 0.2, y: 0.1 },
    ]);
    expect(g.isDragging).toBe(true);
    // Once dragging, every move counts, even back near the start.
    expect(g.move(at(11, 10), at(0.11, 0.1))).toEqual([{ kind: "move", x: 0.11, y: 0.1 }]);
    expect(g.release(at(60, 40), at(0.6, 0.4), ["control"])).toEqual([
      { kind: "up", x: 0.6, y: 0.4, button: "left", modifiers: ["control"] },
    ]);
    expect(g.active).toBe(false);
    expect(g.isDragging).toBe(false);
  });

  it("makes a drag of a release far away even without moves in between", () => {
    const g = new PointerGesture();
    g.press(at(0, 0), at(0, 0), "right");
    expect(g.release(at(50, 0), at(0.5, 0))).toEqual([
      { kind: "down", x: 0, y: 0, button: "right", modifiers: [] },
      { kind: "up", x: 0.5, y: 0, button: "right", modifiers: [] },
    ]);
  });

  it("lets go of a dragged button when the press is cancelled, and ignores strays", () => {
    const g = new PointerGesture();
    expect(g.move(at(50, 50), at(0.5, 0.5))).toEqual([]);
    expect(g.release(at(50, 50), at(0.5, 0.5))).toEqual([]);
    g.press(at(0, 0), at(0, 0), "left");
    expect(g.cancel()).toEqual([]); // not dragging: nothing is held on the page
    g.press(at(0, 0), at(0, 0), "middle");
    g.move(at(30, 0), at(0.3, 0));
    expect(g.cancel()).toEqual([{ kind: "up", x: 0.3, y: 0, button: "middle" }]);
    expect(g.active).toBe(false);
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
