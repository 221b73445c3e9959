// Live view: the agent's browser as a live picture (liveview/picture.ts), or the Tool Inspector in its place.
// "Take control" takes the browser's controls on the server (one person at a time; the agent pauses after its
// current step): while you hold them, clicks, drags, moves, wheel and keys on the picture go back over the
// websocket as `input` commands (liveview/remote.ts); "Hand back" lets the agent continue. The header says who
// holds them (liveview/control.ts), and offers a focus mode (the browser in the whole window, at most at its own
// size) and a window of its own.

import type { ControlUi } from "../access";
import type { FrameEvent, InputCommand } from "../api/types";
import { h, icon, ICONS, setAttr, setText } from "../dom";
import { ControlSwitch, NO_CONTROL } from "./liveview/control";
import { LivePicture } from "./liveview/picture";
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
  /** Focus mode on or off; `setFocused` shows the outcome. */
  onFocus: (on: boolean) => void;
  /** Opens the live view in a window of its own. */
  onPopout: () => void;
}

/** What the panel under the tab bar shows: the live picture, or the Tool Inspector. */
export type LiveMode = "browser" | "tools";

export class LiveView {
  readonly el: HTMLElement;
  private readonly picture: LivePicture;
  private readonly foot: HTMLElement;
  private readonly control: ControlSwitch;
  private mode: LiveMode = "browser";
  /** Said in place of the picture (and under it) when nothing may be shown, e.g. the access was removed. */
  private emptyMessage: string | null = null;
  private readonly modeButtons: Record<LiveMode, HTMLButtonElement>;
  private readonly toolCount: HTMLElement;
  private enabled = false;
  private focused = false;
  private readonly input: RemoteInput;
  private readonly focusButton: HTMLButtonElement;
  private readonly popoutButton: HTMLButtonElement;

  constructor(private readonly options: LiveViewOptions) {
    this.picture = new LivePicture(() => this.options.frameDone());
    this.input = new RemoteInput({
      canvas: this.picture.canvas,
      stage: this.picture.stage,
      controlling: () => this.controlling,
      hasPicture: () => this.picture.hasFrame,
      sendInput: (command) => this.options.sendInput(command),
    });
    this.control = new ControlSwitch((take) => this.options.onControl(take));
    this.foot = h("p", { class: "live-foot", "data-testid": "live-foot" });
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
    this.focusButton = h(
      "button",
      {
        class: "btn btn-ghost btn-icon live-focus-button",
        type: "button",
        "data-testid": "live-focus",
        onclick: () => this.options.onFocus(!this.focused),
      },
      icon(ICONS.maximize),
    );
    this.popoutButton = h(
      "button",
      {
        class: "btn btn-ghost btn-icon",
        type: "button",
        "data-testid": "live-popout",
        title: "Open the browser in a window of its own",
        "aria-label": "Open the browser in a window of its own",
        onclick: () => this.options.onPopout(),
      },
      icon(ICONS.external),
    );
    this.el = h(
      "section",
      { class: "live", "aria-label": "Live browser" },
      h(
        "header",
        { class: "live-head", "data-testid": "live-head" },
        h("h2", { class: "visually-hidden" }, "Live browser"),
        h(
          "div",
          { class: "live-modes", role: "tablist", "aria-label": "Live browser or its tools" },
          this.modeButtons.browser,
          this.modeButtons.tools,
        ),
        this.picture.meta,
        this.control.el,
        h("div", { class: "live-head-views" }, this.focusButton, this.popoutButton),
      ),
      options.tabBar,
      this.picture.stage,
      options.inspector,
      this.foot,
    );
    this.setMode("browser");
    this.setEnabled(false);
    this.setFocused(false);
  }

  /** Shows whether focus mode is on (the button then leaves it). */
  setFocused(on: boolean): void {
    this.focused = on;
    const label = on ? "Leave focus mode (Esc)" : "Focus: the browser in the whole window";
    setAttr(this.focusButton, "title", label);
    setAttr(this.focusButton, "aria-label", label);
    setAttr(this.focusButton, "aria-pressed", String(on));
    this.focusButton.replaceChildren(icon(on ? ICONS.minimize : ICONS.maximize));
  }

  /** Whether keys and clicks on the picture go to the page now. */
  get isControlling(): boolean {
    return this.controlling;
  }

  /** Shows the live picture or the Tool Inspector under the tab bar. */
  setMode(mode: LiveMode): void {
    const tools = mode === "tools";
    for (const [key, button] of Object.entries(this.modeButtons)) {
      button.setAttribute("aria-selected", key === mode ? "true" : "false");
      button.classList.toggle("active", key === mode);
    }
    this.mode = mode;
    this.picture.stage.hidden = tools;
    this.foot.hidden = tools;
    this.picture.meta.hidden = tools;
    this.control.el.hidden = tools;
    this.options.inspector.hidden = !tools;
    // Typing must not go to a page nobody sees (the controls stay yours until you hand them back).
    this.onControlChanged();
  }

  /**
   * Shows who holds the browser's controls and what the switch offers (access.controlUi): input goes to
   * the page only while the signed-in user holds them.
   */
  setControl(ui: ControlUi): void {
    this.control.render(ui, this.enabled);
    this.onControlChanged();
  }

  /** Says why there is no picture (e.g. the access was removed) instead of the usual hint. */
  setEmptyMessage(text: string | null): void {
    this.emptyMessage = text;
    this.picture.setEmptyText(text);
    this.onControlChanged();
  }

  /** The number of tools on the page, on the Tools tab. */
  setToolCount(count: number): void {
    this.toolCount.hidden = count === 0;
    setText(this.toolCount, String(count));
  }

  pushFrame(frame: FrameEvent): void {
    if (this.enabled) this.picture.push(frame);
    else this.options.frameDone();
  }

  /** Enabled while a conversation is open; switching conversations clears the picture. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.focusButton.disabled = this.popoutButton.disabled = !enabled;
    this.picture.reset();
    this.setEmptyMessage(null);
    this.setControl(enabled ? this.control.ui : NO_CONTROL);
  }

  /** Input goes to the page: a conversation is open, its picture shows, and the signed-in user holds the controls. */
  private get controlling(): boolean {
    return this.enabled && this.mode === "browser" && this.control.ui.mine;
  }

  private onControlChanged(): void {
    const stage = this.picture.stage;
    const on = this.controlling;
    const was = stage.classList.contains("controlling");
    if (!on) this.input.endGesture();
    stage.classList.toggle("controlling", on);
    stage.tabIndex = on ? 0 : -1;
    setText(
      this.foot,
      this.enabled ? this.control.ui.hint : (this.emptyMessage ?? "Open a conversation to see its browser."),
    );
    this.foot.hidden = this.mode !== "browser" || !this.foot.textContent;
    if (on && !was) stage.focus({ preventScroll: true });
  }
}
