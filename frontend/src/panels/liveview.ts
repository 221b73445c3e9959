// Live view: draws the latest `frame` (base64 JPEG) on a canvas, scaled to fit, one per animation
// frame — a newer frame always replaces an older one, frames never queue. "Take control" takes the browser's
// controls on the server (one person at a time; the agent pauses after its current step): while you hold
// them, clicks, drags, moves, wheel and keys on the picture go back over the websocket as `input` commands;
// "Hand back" lets the agent continue. The header says who holds them.

import type { ControlUi } from "../access";
import type { FrameEvent, InputCommand } from "../api/types";
import { h, icon, ICONS, present, setAttr, setText } from "../dom";
import { LatestWins, base64ToBytes } from "./liveview/frames";
import { RemoteInput } from "./liveview/remote";

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
  private readonly input: RemoteInput;

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
    this.input = new RemoteInput({
      canvas: this.canvas,
      stage: this.stage,
      controlling: () => this.controlling,
      hasPicture: () => this.hasFrame,
      sendInput: (command) => this.options.sendInput(command),
    });
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
    if (!on) this.input.endGesture();
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
}
