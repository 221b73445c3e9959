// The live view's input, as pure functions: where a pointer is on the picture (as fractions of it), when
// a press becomes a drag, and which keys, buttons and wheel turns become `input` commands.

import type { InputCommand, Modifier, MouseButton } from "../../api/types";

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Maps a pointer position to fractions (0–1) of the picture, for an element showing a
 * `natural`-sized picture with `object-fit: contain` and `object-position` given as fractions
 * (0.5 = centred, 0 = top/left). Outside the picture: null, or with `clamp` the nearest edge
 * (a drag that leaves the picture still ends at its edge).
 */
export function pointToFraction(
  clientX: number,
  clientY: number,
  box: Box,
  natural: { width: number; height: number },
  position: { x: number; y: number } = { x: 0.5, y: 0.5 },
  clamp = false,
): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0 || natural.width <= 0 || natural.height <= 0) return null;
  const scale = Math.min(box.width / natural.width, box.height / natural.height);
  const shownWidth = natural.width * scale;
  const shownHeight = natural.height * scale;
  const left = box.left + (box.width - shownWidth) * position.x;
  const top = box.top + (box.height - shownHeight) * position.y;
  const x = (clientX - left) / shownWidth;
  const y = (clientY - top) / shownHeight;
  if (clamp) return { x: round4(clamp01(x)), y: round4(clamp01(y)) };
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: round4(x), y: round4(y) };
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;
const clamp01 = (n: number): number => Math.min(1, Math.max(0, n));

/** How far (CSS pixels) the pointer may move while a button is held and still make a click, not a drag. */
export const DRAG_THRESHOLD_PX = 4;

/** Whether the pointer went further than `threshold` CSS pixels from where the button went down. */
export function isDrag(
  from: { x: number; y: number },
  to: { x: number; y: number },
  threshold = DRAG_THRESHOLD_PX,
): boolean {
  return Math.hypot(to.x - from.x, to.y - from.y) > threshold;
}

interface Point { x: number; y: number }

interface Press { client: Point; at: Point; button: MouseButton; modifiers: Modifier[] }

function downCommand(start: Press): InputCommand {
  return { kind: "down", ...start.at, button: start.button, modifiers: start.modifiers };
}

/**
 * One press of a mouse button, as input commands. Released within DRAG_THRESHOLD_PX of where it went
 * down, it is one `click` there. Once the pointer goes further it is a drag: `down` where the press
 * started, then `move`s, then `up` where it is released. `client` positions are CSS pixels on the
 * screen (for the threshold); `at` positions are fractions of the picture (what the server gets).
 */
export class PointerGesture {
  private start: Press | null = null;
  private last: Point | null = null;
  private dragging = false;

  /** A button is held. */
  get active(): boolean {
    return this.start !== null;
  }

  get isDragging(): boolean {
    return this.dragging;
  }

  press(client: Point, at: Point, button: MouseButton, modifiers: Modifier[] = []): void {
    this.start = { client, at, button, modifiers };
    this.last = at;
    this.dragging = false;
  }

  move(client: Point, at: Point): InputCommand[] {
    const start = this.start;
    if (!start) return [];
    this.last = at;
    if (this.dragging) return [{ kind: "move", ...at }];
    if (!isDrag(start.client, client)) return [];
    this.dragging = true;
    return [downCommand(start), { kind: "move", ...at }];
  }

  release(client: Point, at: Point | null, modifiers: Modifier[] = []): InputCommand[] {
    const start = this.start;
    if (!start) return [];
    const end = at ?? this.last ?? start.at;
    const commands: InputCommand[] = [];
    if (this.dragging || isDrag(start.client, client)) {
      if (!this.dragging) commands.push(downCommand(start));
      commands.push({ kind: "up", ...end, button: start.button, modifiers });
    } else {
      commands.push({ kind: "click", ...start.at, button: start.button, modifiers: start.modifiers });
    }
    this.reset();
    return commands;
  }

  /** The press ended without a release (control turned off, pointer lost): a held button is let go. */
  cancel(): InputCommand[] {
    const start = this.start;
    const commands: InputCommand[] =
      start && this.dragging ? [{ kind: "up", ...(this.last ?? start.at), button: start.button }] : [];
    this.reset();
    return commands;
  }

  private reset(): void {
    this.start = null;
    this.last = null;
    this.dragging = false;
  }
}

export interface KeyLike {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** Named keys the server can replay (browser_pool/input.py); any single character is accepted too. */
const NAMED_KEYS = new Set([
  "Enter",
  "Tab",
  "Backspace",
  "Escape",
  "Delete",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ArrowLeft",
  "ArrowUp",
  "ArrowRight",
  "ArrowDown",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);

export function modifiersOf(e: Omit<KeyLike, "key">): Modifier[] {
  const out: Modifier[] = [];
  if (e.altKey) out.push("alt");
  if (e.ctrlKey) out.push("control");
  if (e.metaKey) out.push("meta");
  if (e.shiftKey) out.push("shift");
  return out;
}

/**
 * A printable character without Control/Meta becomes `text` (the page gets the character as typed);
 * a named key (Enter, Backspace, arrows…) or a shortcut (Control+A) becomes `key` with modifiers.
 * Lone modifiers, dead keys, IME composition and keys the server can't replay send nothing.
 */
export function keyToInput(e: KeyLike): Pick<InputCommand, "kind" | "key" | "text" | "modifiers"> | null {
  if (e.isComposing) return null;
  const single = Array.from(e.key).length === 1;
  if (single && !e.ctrlKey && !e.metaKey) return { kind: "text", text: e.key };
  if (!single && !NAMED_KEYS.has(e.key)) return null;
  return { kind: "key", key: e.key, modifiers: modifiersOf(e) };
}

const BUTTONS: Record<number, MouseButton> = { 0: "left", 1: "middle", 2: "right" };

export function mouseButton(button: number): MouseButton {
  return BUTTONS[button] ?? "left";
}

/** Wheel deltas in CSS pixels, whatever unit the browser reported them in. */
export function wheelPixels(
  deltaX: number,
  deltaY: number,
  deltaMode: number,
  pageHeight = 800,
): { dx: number; dy: number } {
  const factor = deltaMode === 1 ? 16 : deltaMode === 2 ? pageHeight : 1;
  return { dx: Math.round(deltaX * factor), dy: Math.round(deltaY * factor) };
}
