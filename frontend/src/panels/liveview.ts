// Live view: draws the latest `frame` (base64 JPEG) on a canvas, scaled to fit, one per animation
// frame — a newer frame always replaces an older one, frames never queue. "Take control" takes the browser's
// controls on the server (one person at a time; the agent pauses after its current step): while you hold
// them, clicks, drags, moves, wheel and keys on the picture go back over the websocket as `input` commands;
// "Hand back" lets the agent continue. The header says who holds them.

import type { ControlUi } from "../access";
import type { FrameEvent, InputCommand, Modifier, MouseButton } from "../api/types";
import { h, icon, ICONS, present, setAttr, setText } from "../dom";

// --- Pure parts (unit-tested) ---

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

/**
 * Latest-wins pipeline: at most one decode in flight, at most one decoded picture waiting for the
 * next animation frame; anything older is dropped (and released). Every pushed input is settled
 * exactly once — drawn, overtaken, failed or reset — which is when the server may send the next one.
 */
export class LatestWins<In, Out> {
  private waiting: In | null = null;
  private decoding = false;
  private ready: { input: In; output: Out } | null = null;
  private frameRequested = false;
  private generation = 0;

  constructor(
    private readonly decode: (input: In) => Promise<Out>,
    private readonly draw: (output: Out) => void,
    private readonly release: (output: Out) => void,
    private readonly requestFrame: (callback: () => void) => void,
    private readonly settled: (input: In) => void = () => undefined,
  ) {}

  push(input: In): void {
    if (this.waiting !== null) this.settled(this.waiting);
    this.waiting = input;
    if (!this.decoding) void this.decodeNext();
  }

  reset(): void {
    this.generation += 1;
    if (this.waiting !== null) this.settled(this.waiting);
    this.waiting = null;
    this.dropReady();
  }

  private dropReady(): void {
    const ready = this.ready;
    this.ready = null;
    if (ready === null) return;
    this.release(ready.output);
    this.settled(ready.input);
  }

  private async decodeNext(): Promise<void> {
    while (this.waiting !== null) {
      const input = this.waiting;
      const generation = this.generation;
      this.waiting = null;
      this.decoding = true;
      let output: Out;
      try {
        output = await this.decode(input);
      } catch {
        this.settled(input); // A corrupt frame is skipped; the next one will do.
        continue;
      } finally {
        this.decoding = false;
      }
      if (generation !== this.generation) {
        this.release(output);
        this.settled(input);
        continue;
      }
      this.dropReady();
      this.ready = { input, output };
      this.scheduleDraw();
    }
  }

  private scheduleDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.requestFrame(() => {
      this.frameRequested = false;
      const ready = this.ready;
      this.ready = null;
      if (ready === null) return;
      this.draw(ready.output);
      this.release(ready.output);
      this.settled(ready.input);
    });
  }
}

function base64ToBytes(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// --- The panel ---

export interface LiveViewOptions {
  /** Sends one input command over the websocket; false when it could not be sent. */
  sendInput: (command: InputCommand) => boolean;
  /** A frame has been drawn or dropped: the server paces frames on this acknowledgement. */
  frameDone: () => void;
  /** Rendered between the header and the picture (the tab bar). */
  tabBar: HTMLElement;
  /** The Tool Inspector, shown in place of the picture when its tab is chosen. */
  inspector: HTMLElement;
  /** Takes the browser's controls (true) or hands them back (false); `setControl` shows the outcome. */
  onControl: (take: boolean) => void;
}

/** Before a conversation says who the reader is: nothing offered, nobody holds the controls. */
const NO_CONTROL: ControlUi = {
  offered: false,
  mine: false,
  checked: false,
  disabled: true,
  label: "Take control",
  hint: "",
  holder: null,
};

/** What the panel under the tab bar shows: the live picture, or the Tool Inspector. */
export type LiveMode = "browser" | "tools";

const MOVE_INTERVAL_MS = 50;
/** Matches `object-position: top center` on .live-canvas: the page sits under the address bar. */
const PICTURE_POSITION = { x: 0.5, y: 0 };

export class LiveView {
  readonly el: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly stage: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly foot: HTMLElement;
  private readonly control: HTMLInputElement;
  private readonly controlLabel: HTMLElement;
  private readonly controlText: HTMLElement;
  private readonly controlStatus: HTMLElement;
  private readonly controlHolder: HTMLElement;
  private readonly controlStatusText: HTMLElement;
  private readonly handBack: HTMLButtonElement;
  private readonly headControls: HTMLElement;
  private controlUi: ControlUi = NO_CONTROL;
  private mode: LiveMode = "browser";
  private readonly emptyText: HTMLElement;
  /** Said in place of the picture (and under it) when nothing may be shown, e.g. the access was removed. */
  private emptyMessage: string | null = null;
  private readonly modeButtons: Record<LiveMode, HTMLButtonElement>;
  private readonly toolCount: HTMLElement;
  private readonly frames: LatestWins<FrameEvent, ImageBitmap>;
  private enabled = false;
  private hasFrame = false;
  private drawn = 0;
  private fpsWindow: number[] = [];
  private pointer = { x: 0.5, y: 0.5 };
  private pendingMove: { x: number; y: number } | null = null;
  private lastMoveAt = 0;
  private moveTimer: number | null = null;
  private pendingWheel = { dx: 0, dy: 0, x: 0.5, y: 0.5 };
  private wheelFrame: number | null = null;
  private readonly gesture = new PointerGesture();
  private gesturePointer: number | null = null;
  private pendingDrag: InputCommand | null = null;
  private dragFrame: number | null = null;

  constructor(private readonly options: LiveViewOptions) {
    this.canvas = h("canvas", {
      class: "live-canvas",
      "data-testid": "live-view",
      hidden: true,
      "aria-label": "Live view of the agent's browser",
    });
    this.emptyText = h("span", null, "The agent's browser appears here while it works.");
    this.empty = h(
      "div",
      { class: "live-empty", "data-testid": "live-view-empty" },
      icon(ICONS.monitor, 36),
      h("strong", null, "No live view"),
      this.emptyText,
    );
    this.stage = h("div", { class: "live-stage", tabindex: "-1" }, this.canvas, this.empty);
    this.meta = h("span", { class: "live-meta" });
    this.control = h("input", {
      type: "checkbox",
      class: "switch",
      "data-testid": "take-control",
      role: "switch",
      "aria-label": "Take control",
    });
    // The switch asks; what it shows comes back from the server (setControl), not from the click.
    this.control.addEventListener("change", () => {
      const take = this.control.checked;
      this.control.checked = this.controlUi.checked;
      this.options.onControl(take);
    });
    this.foot = h("p", { class: "live-foot", "data-testid": "live-foot" });
    this.controlText = h("span", null, "Take control");
    this.controlLabel = h("label", { class: "switch-label take-control" }, this.control, this.controlText);
    this.controlHolder = h("span", { class: "control-holder-name", "data-testid": "control-holder" });
    this.controlStatusText = h("span", { class: "control-status-text" });
    this.controlStatus = h(
      "span",
      { class: "control-status", "data-testid": "control-status", role: "status" },
      icon(ICONS.cursor, 13),
      this.controlHolder,
      this.controlStatusText,
    );
    this.handBack = h(
      "button",
      {
        class: "btn btn-secondary btn-sm hand-back",
        type: "button",
        "data-testid": "hand-back",
        title: "Give the browser back to the agent: it continues from the page as you left it",
        onclick: () => this.options.onControl(false),
      },
      "Hand back",
    );
    this.headControls = h("div", { class: "live-head-controls" }, this.controlStatus, this.controlLabel);
    this.toolCount = h("span", { class: "live-mode-count", "data-testid": "tool-count", hidden: true });
    const modeButton = (mode: LiveMode, label: string, ...extra: HTMLElement[]): HTMLButtonElement =>
      h(
        "button",
        {
          class: "live-mode",
          type: "button",
          role: "tab",
          "data-testid": `live-mode-${mode}`,
          onclick: () => this.setMode(mode),
        },
        h("span", null, label),
        ...extra,
      );
    this.modeButtons = {
      browser: modeButton("browser", "Browser"),
      tools: modeButton("tools", "Tools", this.toolCount),
    };
    this.el = h(
      "section",
      { class: "live", "aria-label": "Live browser" },
      h(
        "header",
        { class: "live-head" },
        h("h2", { class: "visually-hidden" }, "Live browser"),
        h(
          "div",
          { class: "live-modes", role: "tablist", "aria-label": "Live browser or its tools" },
          this.modeButtons.browser,
          this.modeButtons.tools,
        ),
        this.meta,
        this.headControls,
      ),
      options.tabBar,
      this.stage,
      options.inspector,
      this.foot,
    );
    this.setMode("browser");
    const ctx = this.canvas.getContext("2d");
    this.frames = new LatestWins<FrameEvent, ImageBitmap>(
      (frame) => createImageBitmap(new Blob([base64ToBytes(frame.data)], { type: "image/jpeg" })),
      (bitmap) => {
        if (this.canvas.width !== bitmap.width || this.canvas.height !== bitmap.height) {
          this.canvas.width = bitmap.width;
          this.canvas.height = bitmap.height;
        }
        ctx?.drawImage(bitmap, 0, 0);
        this.onDrawn(bitmap.width, bitmap.height);
      },
      (bitmap) => bitmap.close(),
      (callback) => requestAnimationFrame(callback),
      () => this.options.frameDone(),
    );
    this.bindInput();
    this.setEnabled(false);
  }

  /** Shows the live picture or the Tool Inspector under the tab bar. */
  setMode(mode: LiveMode): void {
    const tools = mode === "tools";
    for (const [key, button] of Object.entries(this.modeButtons)) {
      button.setAttribute("aria-selected", key === mode ? "true" : "false");
      button.classList.toggle("active", key === mode);
    }
    this.mode = mode;
    this.stage.hidden = tools;
    this.foot.hidden = tools;
    this.meta.hidden = tools;
    this.headControls.hidden = tools;
    this.options.inspector.hidden = !tools;
    // Typing must not go to a page nobody sees (the controls stay yours until you hand them back).
    this.onControlChanged();
  }

  /**
   * Shows who holds the browser's controls and what the switch offers (access.controlUi): input goes to
   * the page only while the signed-in user holds them.
   */
  setControl(ui: ControlUi): void {
    this.controlUi = ui;
    present(this.headControls, this.controlLabel, ui.offered);
    this.control.checked = ui.checked;
    this.control.disabled = !this.enabled || ui.disabled;
    setAttr(this.control, "aria-label", ui.label);
    setAttr(this.control, "data-holding", ui.mine ? "true" : "false");
    setText(this.controlText, ui.label);
    setAttr(this.controlLabel, "title", ui.hint || null);
    // Who holds the controls, when someone does (nobody: the agent has the browser, as the foot says).
    setText(this.controlHolder, ui.holder ?? "");
    setText(this.controlStatusText, ui.holder === null ? "" : " has control");
    setAttr(this.controlStatus, "data-holder", ui.holder);
    setAttr(this.controlStatus, "title", ui.holder === null ? null : ui.mine ? "You have control of the browser" : `${ui.holder} has control of the browser`);
    this.controlStatus.hidden = ui.holder === null;
    this.controlStatus.classList.toggle("mine", ui.mine);
    // Holding the controls, "Hand back" says what the switch would; the switch keeps its state for assistive tech.
    this.controlLabel.classList.toggle("visually-hidden", ui.mine && !ui.disabled);
    present(this.headControls, this.handBack, ui.mine && ui.offered && !ui.disabled);
    this.onControlChanged();
  }

  /** Says why there is no picture (e.g. the access was removed) instead of the usual hint. */
  setEmptyMessage(text: string | null): void {
    this.emptyMessage = text;
    setText(this.emptyText, text ?? "The agent's browser appears here while it works.");
    this.onControlChanged();
  }

  /** The number of tools on the page, on the Tools tab. */
  setToolCount(count: number): void {
    this.toolCount.hidden = count === 0;
    setText(this.toolCount, String(count));
  }

  pushFrame(frame: FrameEvent): void {
    if (this.enabled) this.frames.push(frame);
    else this.options.frameDone();
  }

  /** Enabled while a conversation is open; switching conversations clears the picture. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.frames.reset();
    this.hasFrame = false;
    this.drawn = 0;
    this.fpsWindow = [];
    this.canvas.hidden = true;
    this.stage.classList.remove("has-frame");
    this.canvas.setAttribute("data-has-frame", "false");
    this.canvas.setAttribute("data-frames", "0");
    this.empty.hidden = false;
    this.setEmptyMessage(null);
    this.setControl(enabled ? this.controlUi : NO_CONTROL);
    setText(this.meta, "");
  }

  /** Input goes to the page: a conversation is open, its picture shows, and the signed-in user holds the controls. */
  private get controlling(): boolean {
    return this.enabled && this.mode === "browser" && this.controlUi.mine;
  }

  private onControlChanged(): void {
    const on = this.controlling;
    const was = this.stage.classList.contains("controlling");
    if (!on) this.endGesture();
    this.stage.classList.toggle("controlling", on);
    this.stage.tabIndex = on ? 0 : -1;
    setText(
      this.foot,
      this.enabled ? this.controlUi.hint : (this.emptyMessage ?? "Open a conversation to see its browser."),
    );
    this.foot.hidden = this.mode !== "browser" || !this.foot.textContent;
    if (on && !was) this.stage.focus({ preventScroll: true });
  }

  private onDrawn(width: number, height: number): void {
    this.drawn += 1;
    this.canvas.setAttribute("data-frames", String(this.drawn));
    if (!this.hasFrame) {
      this.hasFrame = true;
      this.canvas.hidden = false;
      this.empty.hidden = true;
      this.stage.classList.add("has-frame");
      this.canvas.setAttribute("data-has-frame", "true");
    }
    const now = performance.now();
    this.fpsWindow.push(now);
    this.fpsWindow = this.fpsWindow.filter((t) => now - t <= 1000);
    const fps = this.fpsWindow.length;
    setText(this.meta, fps >= 2 ? `${width}×${height} · ${fps} fps` : `${width}×${height}`);
  }

  private fraction(e: MouseEvent, clamp = false): { x: number; y: number } | null {
    if (!this.hasFrame) return null;
    const box = this.canvas.getBoundingClientRect();
    return pointToFraction(e.clientX, e.clientY, box, this.canvas, PICTURE_POSITION, clamp);
  }

  private send(command: Omit<InputCommand, "x" | "y"> & { x?: number; y?: number }): void {
    const { x, y } = command.x !== undefined && command.y !== undefined ? { x: command.x, y: command.y } : this.pointer;
    this.options.sendInput({ ...command, x, y });
  }

  private bindInput(): void {
    const c = this.canvas;
    // A press is a click, or a drag once the pointer moves more than DRAG_THRESHOLD_PX (PointerGesture).
    c.addEventListener("pointerdown", (e) => {
      if (!this.controlling) return;
      this.stage.focus({ preventScroll: true });
      if (!e.isPrimary || this.gesture.active) return;
      const point = this.fraction(e);
      if (!point) return;
      e.preventDefault(); // no text selection or native drag while the page gets the press
      this.pointer = point;
      this.pendingMove = null;
      this.gesture.press({ x: e.clientX, y: e.clientY }, point, mouseButton(e.button), modifiersOf(e));
      this.gesturePointer = e.pointerId;
      try {
        c.setPointerCapture(e.pointerId); // moves and the release still come when the pointer leaves
      } catch {
        // The pointer is already gone; pointerup/cancel ends the gesture.
      }
    });
    c.addEventListener("pointermove", (e) => {
      if (e.pointerId !== this.gesturePointer || !this.controlling) return;
      const point = this.fraction(e, true);
      if (!point) return;
      this.pointer = point;
      this.sendGesture(this.gesture.move({ x: e.clientX, y: e.clientY }, point));
    });
    c.addEventListener("pointerup", (e) => {
      if (e.pointerId !== this.gesturePointer) return;
      this.gesturePointer = null;
      if (!this.controlling) return void this.gesture.cancel();
      const point = this.fraction(e, true);
      if (point) this.pointer = point;
      this.sendGesture(this.gesture.release({ x: e.clientX, y: e.clientY }, point, modifiersOf(e)));
    });
    const lost = (e: PointerEvent): void => {
      if (e.pointerId === this.gesturePointer) this.endGesture();
    };
    c.addEventListener("pointercancel", lost);
    c.addEventListener("lostpointercapture", lost);
    c.addEventListener("contextmenu", (e) => this.controlling && e.preventDefault());
    c.addEventListener("mousemove", (e) => {
      if (!this.controlling || this.gesture.active) return;
      const point = this.fraction(e);
      if (!point) return;
      this.pointer = point;
      this.pendingMove = point;
      this.flushMoveSoon();
    });
    c.addEventListener(
      "wheel",
      (e) => {
        if (!this.controlling) return;
        const point = this.fraction(e);
        if (!point) return;
        e.preventDefault();
        const { dx, dy } = wheelPixels(e.deltaX, e.deltaY, e.deltaMode, c.height || 800);
        this.pendingWheel = { dx: this.pendingWheel.dx + dx, dy: this.pendingWheel.dy + dy, ...point };
        this.wheelFrame ??= requestAnimationFrame(() => {
          this.wheelFrame = null;
          const w = this.pendingWheel;
          this.pendingWheel = { dx: 0, dy: 0, x: w.x, y: w.y };
          if (w.dx || w.dy) this.send({ kind: "wheel", x: w.x, y: w.y, delta_x: w.dx, delta_y: w.dy });
        });
      },
      { passive: false },
    );
    this.stage.addEventListener("keydown", (e) => {
      if (!this.controlling) return;
      const command = keyToInput(e);
      if (!command) return;
      e.preventDefault();
      this.send(command);
    });
    this.stage.addEventListener("paste", (e) => {
      if (!this.controlling) return;
      const text = e.clipboardData?.getData("text/plain");
      if (!text) return;
      e.preventDefault();
      this.send({ kind: "text", text });
    });
  }

  /**
   * Sends what a press produced: `down`, `up` and `click` at once, a drag's `move`s at most once per
   * animation frame (only the newest). A pending move is dropped before `up`: `up` moves there itself.
   */
  private sendGesture(commands: InputCommand[]): void {
    for (const command of commands) {
      if (command.kind === "move") {
        this.pendingDrag = command;
        this.dragFrame ??= requestAnimationFrame(() => {
          this.dragFrame = null;
          const move = this.pendingDrag;
          this.pendingDrag = null;
          if (move && this.gesture.isDragging) this.options.sendInput(move);
        });
        continue;
      }
      if (command.kind === "up" || command.kind === "click") this.pendingDrag = null;
      this.options.sendInput(command);
    }
  }

  /** Ends a press without a release (control off, pointer lost), letting go of a dragged button. */
  private endGesture(): void {
    const pointer = this.gesturePointer;
    this.gesturePointer = null;
    if (pointer !== null && this.canvas.hasPointerCapture(pointer)) this.canvas.releasePointerCapture(pointer);
    this.sendGesture(this.gesture.cancel());
  }

  /** Moves go out at most every MOVE_INTERVAL_MS; only the newest position is sent. */
  private flushMoveSoon(): void {
    if (this.moveTimer !== null) return;
    const wait = Math.max(0, MOVE_INTERVAL_MS - (performance.now() - this.lastMoveAt));
    this.moveTimer = window.setTimeout(() => {
      this.moveTimer = null;
      const point = this.pendingMove;
      this.pendingMove = null;
      if (!point || !this.controlling || this.gesture.active) return;
      this.lastMoveAt = performance.now();
      this.send({ kind: "move", ...point });
    }, wait);
  }
}
