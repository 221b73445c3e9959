// The live picture: the latest `frame` (base64 JPEG) drawn on a canvas, scaled to fit, one per animation frame —
// a newer frame always replaces an older one, frames never queue. Until the first frame a hint shows instead;
// the header's meta says the picture's size and frame rate.

import type { FrameEvent } from "../../api/types";
import { h, icon, ICONS, setText } from "../../dom";
import { LatestWins, base64ToBytes } from "./frames";

const EMPTY_TEXT = "The browser shows here once a page is open: send the agent a task, or type an address above.";

export class LivePicture {
  readonly canvas: HTMLCanvasElement;
  /** The canvas or the hint, focusable around the picture (keys and pastes arrive here). */
  readonly stage: HTMLElement;
  /** Size and frame rate, for the header. */
  readonly meta = h("span", { class: "live-meta" });
  private readonly empty: HTMLElement;
  private readonly emptyText = h("span", null, EMPTY_TEXT);
  private readonly frames: LatestWins<FrameEvent, ImageBitmap>;
  private shown = false;
  private drawn = 0;
  private fpsWindow: number[] = [];

  /** `frameDone`: a frame was drawn or dropped, so the server may send the next. */
  constructor(frameDone: () => void) {
    this.canvas = h("canvas", {
      class: "live-canvas",
      "data-testid": "live-view",
      hidden: true,
      "aria-label": "Live view of the agent's browser",
    });
    this.empty = h(
      "div",
      { class: "live-empty", "data-testid": "live-view-empty" },
      icon(ICONS.monitor, 36),
      h("strong", null, "No live view"),
      this.emptyText,
    );
    this.stage = h("div", { class: "live-stage", tabindex: "-1" }, this.canvas, this.empty);
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
      () => frameDone(),
    );
  }

  /** A frame was drawn since the last reset. */
  get hasFrame(): boolean {
    return this.shown;
  }

  push(frame: FrameEvent): void {
    this.frames.push(frame);
  }

  /** No picture (another conversation, or none): the hint again. */
  reset(): void {
    this.frames.reset();
    this.shown = false;
    this.drawn = 0;
    this.fpsWindow = [];
    this.canvas.hidden = true;
    this.stage.classList.remove("has-frame");
    this.canvas.setAttribute("data-has-frame", "false");
    this.canvas.setAttribute("data-frames", "0");
    this.empty.hidden = false;
    setText(this.meta, "");
  }

  /** What the hint says: why there is no picture, or (null) the usual words. */
  setEmptyText(text: string | null): void {
    setText(this.emptyText, text ?? EMPTY_TEXT);
  }

  private onDrawn(width: number, height: number): void {
    this.drawn += 1;
    this.canvas.setAttribute("data-frames", String(this.drawn));
    if (!this.shown) {
      this.shown = true;
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
}
