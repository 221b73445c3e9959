// Taking the controls: presses, drags, moves, the wheel, keys and pastes on the live picture become
// `input` commands for the page, paced so that only the newest move goes out.

import type { InputCommand } from "../../api/types";
import { PointerGesture, keyToInput, modifiersOf, mouseButton, pointToFraction, wheelPixels } from "./input";

const MOVE_INTERVAL_MS = 50;
/** Matches `object-position: top center` on .live-canvas: the page sits under the address bar. */
const PICTURE_POSITION = { x: 0.5, y: 0 };

export interface RemoteInputHost {
  canvas: HTMLCanvasElement;
  /** Focusable around the picture: keys and pastes arrive here. */
  stage: HTMLElement;
  /** Whether input goes to the page now (the reader holds the controls and the picture shows). */
  controlling: () => boolean;
  hasPicture: () => boolean;
  sendInput: (command: InputCommand) => boolean;
}

export class RemoteInput {
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

  constructor(private readonly host: RemoteInputHost) {
    this.bind();
  }

  private fraction(e: MouseEvent, clamp = false): { x: number; y: number } | null {
    if (!this.host.hasPicture()) return null;
    const box = this.host.canvas.getBoundingClientRect();
    return pointToFraction(e.clientX, e.clientY, box, this.host.canvas, PICTURE_POSITION, clamp);
  }

  private send(command: Omit<InputCommand, "x" | "y"> & { x?: number; y?: number }): void {
    const { x, y } = command.x !== undefined && command.y !== undefined ? { x: command.x, y: command.y } : this.pointer;
    this.host.sendInput({ ...command, x, y });
  }

  private bind(): void {
    const c = this.host.canvas;
    // A press is a click, or a drag once the pointer moves more than DRAG_THRESHOLD_PX (PointerGesture).
    c.addEventListener("pointerdown", (e) => {
      if (!this.host.controlling()) return;
      this.host.stage.focus({ preventScroll: true });
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
      if (e.pointerId !== this.gesturePointer || !this.host.controlling()) return;
      const point = this.fraction(e, true);
      if (!point) return;
      this.pointer = point;
      this.sendGesture(this.gesture.move({ x: e.clientX, y: e.clientY }, point));
    });
    c.addEventListener("pointerup", (e) => {
      if (e.pointerId !== this.gesturePointer) return;
      this.gesturePointer = null;
      if (!this.host.controlling()) return void this.gesture.cancel();
      const point = this.fraction(e, true);
      if (point) this.pointer = point;
      this.sendGesture(this.gesture.release({ x: e.clientX, y: e.clientY }, point, modifiersOf(e)));
    });
    const lost = (e: PointerEvent): void => {
      if (e.pointerId === this.gesturePointer) this.endGesture();
    };
    c.addEventListener("pointercancel", lost);
    c.addEventListener("lostpointercapture", lost);
    c.addEventListener("contextmenu", (e) => this.host.controlling() && e.preventDefault());
    c.addEventListener("mousemove", (e) => {
      if (!this.host.controlling() || this.gesture.active) return;
      const point = this.fraction(e);
      if (!point) return;
      this.pointer = point;
      this.pendingMove = point;
      this.flushMoveSoon();
    });
    c.addEventListener(
      "wheel",
      (e) => {
        if (!this.host.controlling()) return;
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
    this.host.stage.addEventListener("keydown", (e) => {
      if (!this.host.controlling()) return;
      const command = keyToInput(e);
      if (!command) return;
      e.preventDefault();
      this.send(command);
    });
    this.host.stage.addEventListener("paste", (e) => {
      if (!this.host.controlling()) return;
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
          if (move && this.gesture.isDragging) this.host.sendInput(move);
        });
        continue;
      }
      if (command.kind === "up" || command.kind === "click") this.pendingDrag = null;
      this.host.sendInput(command);
    }
  }

  /** Ends a press without a release (control off, pointer lost), letting go of a dragged button. */
  endGesture(): void {
    const pointer = this.gesturePointer;
    this.gesturePointer = null;
    if (pointer !== null && this.host.canvas.hasPointerCapture(pointer)) this.host.canvas.releasePointerCapture(pointer);
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
      if (!point || !this.host.controlling() || this.gesture.active) return;
      this.lastMoveAt = performance.now();
      this.send({ kind: "move", ...point });
    }, wait);
  }
}
