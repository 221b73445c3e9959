// How the chat and the live browser share the window: a split the reader drags (remembered per user in this
// browser), a focus mode that gives the browser the whole window, and on a narrow screen one pane at a time behind
// two tabs (Chat | Browser). The shell carries the outcome as a CSS variable and classes (styles/layout.css).

import { h } from "../dom";
import { Disposables } from "../lifecycle";
import { clampLiveWidth, liveColumn, liveShareKey, readShare, SPLIT_STEP_PX } from "./split";

/** What the layout reads from the page and stores between visits. */
export interface LayoutHost {
  /** The app shell: gets `--live-col`, `live-focus` and `data-pane`. */
  shell: HTMLElement;
  /** The live view's section: the split handle sits on its left edge. */
  live: HTMLElement;
  /** The signed-in user: each person's split is their own. */
  user: () => string;
  /** Keys go to the page while the reader holds the browser: Escape then is the page's, not the layout's. */
  controlling: () => boolean;
  /** Called when focus mode turns on or off. */
  onFocusChange: (focused: boolean) => void;
  storage: Pick<Storage, "getItem" | "setItem"> | null;
}

export type Pane = "chat" | "browser";

export class LiveLayout {
  readonly handle: HTMLElement;
  /** Chat | Browser, for screens too narrow for both (shown by CSS there only). */
  readonly paneTabs: HTMLElement;
  private readonly paneButtons: Record<Pane, HTMLButtonElement>;
  private readonly disposables = new Disposables();
  private share: number | null = null;
  private focused = false;

  constructor(private readonly host: LayoutHost) {
    this.handle = h("div", {
      class: "split-handle",
      role: "separator",
      tabindex: "0",
      "aria-orientation": "vertical",
      "aria-label": "Resize the chat and the browser (double-click: back to the default)",
      title: "Drag to resize; double-click for the default",
      "data-testid": "split-handle",
    });
    host.live.prepend(this.handle);
    const paneButton = (pane: Pane, label: string): HTMLButtonElement =>
      h(
        "button",
        { class: "pane-tab", type: "button", role: "tab", "data-testid": `pane-${pane}`, onclick: () => this.showPane(pane) },
        label,
      );
    this.paneButtons = { chat: paneButton("chat", "Chat"), browser: paneButton("browser", "Browser") };
    this.paneTabs = h(
      "nav",
      { class: "pane-tabs", role: "tablist", "aria-label": "Chat or browser" },
      this.paneButtons.chat,
      this.paneButtons.browser,
    );
    this.showPane("chat");
    this.bindHandle();
    this.disposables.listen(document, "keydown", (e) => {
      if (e.key !== "Escape" || !this.focused || e.defaultPrevented || this.host.controlling()) return;
      if (document.querySelector(".modal-backdrop")) return; // a dialog's Escape closes the dialog
      this.setFocused(false);
    });
  }

  /** The signed-in user's remembered split, applied (call again when the user changes). */
  restore(): void {
    this.share = readShare(this.host.storage, liveShareKey(this.host.user()));
    this.apply();
  }

  get isFocused(): boolean {
    return this.focused;
  }

  setFocused(on: boolean): void {
    if (on === this.focused) return;
    this.focused = on;
    this.host.shell.classList.toggle("live-focus", on);
    this.host.onFocusChange(on);
  }

  showPane(pane: Pane): void {
    this.host.shell.dataset.pane = pane;
    for (const [key, button] of Object.entries(this.paneButtons)) {
      button.setAttribute("aria-selected", String(key === pane));
      button.classList.toggle("active", key === pane);
    }
  }

  dispose(): void {
    this.disposables.dispose();
    this.handle.remove();
  }

  /** The width the chat and the browser share: the shell less the sidebar when it takes a column. */
  private area(): number {
    const shell = this.host.shell.getBoundingClientRect().width;
    const sidebar = this.host.shell.querySelector<HTMLElement>(".sidebar");
    const beside = sidebar !== null && getComputedStyle(sidebar).position !== "fixed";
    return shell - (beside ? sidebar.getBoundingClientRect().width : 0);
  }

  /** The share as the browser's column: CSS keeps it within the minimums as the window changes size. */
  private apply(): void {
    if (this.share === null) {
      this.host.shell.style.removeProperty("--live-col");
      this.handle.removeAttribute("aria-valuenow");
      return;
    }
    this.host.shell.style.setProperty("--live-col", liveColumn(this.share));
    this.handle.setAttribute("aria-valuenow", String(Math.round(this.share * 100)));
  }

  private setLiveWidth(px: number, save: boolean): void {
    const width = this.area();
    if (width <= 0) return;
    this.share = clampLiveWidth(px / width, width) / width;
    this.apply();
    if (save) this.save();
  }

  private save(): void {
    const key = liveShareKey(this.host.user());
    try {
      this.host.storage?.setItem(key, this.share === null ? "" : this.share.toFixed(4));
    } catch {
      // Storage refused (private mode, quota): the split holds for this page only.
    }
  }

  private bindHandle(): void {
    const live = (): number => this.host.live.getBoundingClientRect().width;
    let dragging: number | null = null;
    this.handle.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      dragging = e.pointerId;
      this.handle.setPointerCapture(e.pointerId);
      this.host.shell.classList.add("resizing");
    });
    this.handle.addEventListener("pointermove", (e) => {
      if (e.pointerId !== dragging) return;
      this.setLiveWidth(this.host.shell.getBoundingClientRect().right - e.clientX, false);
    });
    const end = (e: PointerEvent): void => {
      if (e.pointerId !== dragging) return;
      dragging = null;
      this.host.shell.classList.remove("resizing");
      this.save();
    };
    this.handle.addEventListener("pointerup", end);
    this.handle.addEventListener("pointercancel", end);
    this.handle.addEventListener("dblclick", () => {
      this.share = null;
      this.apply();
      this.save();
    });
    this.handle.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowLeft" ? SPLIT_STEP_PX : e.key === "ArrowRight" ? -SPLIT_STEP_PX : 0;
      if (!step) return;
      e.preventDefault();
      this.setLiveWidth(live() + step, true);
    });
  }
}
