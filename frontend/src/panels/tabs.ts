// Tab bar of the agent's browser session, from `tabs.updated`: favicon, title, active tab highlighted;
// click a tab to switch to it, × to close it, + for a new one. Underneath, Back / Forward / Reload and an
// address bar showing the active tab's address, which you can edit (Enter navigates). Each of these runs
// a browser action by hand (POST /api/conversations/<id>/actions/).
// Each tab also has a "share with the agent" toggle: a shared tab is read into the conversation's
// context and goes with the next messages. The context bar under the address bar lists the tabs in the
// context: when each was read, a refresh button, a note when the page was cut or could not be read.

import type { BrowserAction, Tab } from "../api/types";
import { h, icon, ICONS, KeyedList, setAttr } from "../dom";
import { contextEntries, shareState, type ContextEntry } from "../sharing";
import { normalizeAddress, shownAddress } from "./tabs/address";
import { createContextItem } from "./tabs/context";
import { createTab, type TabHandlers, type TabItem } from "./tabs/tab";

export interface TabBarOptions {
  /** Runs a browser action by hand; resolves false when the server refused it (the notice says why). */
  act: (action: BrowserAction, args?: Record<string, unknown>) => Promise<boolean>;
  /** Shows a message in the conversation's notice (an address that cannot be opened). */
  notify: (message: string) => void;
  /** Turns a tab's "share with the agent" toggle on or off (on reads a tab not yet in the context). */
  share: (tabId: string, on: boolean) => void;
  /** Reads a tab in the context again. */
  refresh: (tabId: string) => void;
  /** Takes a tab out of the context. */
  removeContext: (tabId: string) => void;
}

/** What the tab bar shows: the tabs, which are shared with the next send, which are being read. */
export interface TabBarState {
  tabs: Tab[];
  shared: string[];
  reading: Record<string, number>;
}

/** How often "read 2 min ago" is brought up to date. */
const READ_AGO_TICK_MS = 30_000;

function navButton(paths: string, label: string, testid: string, onclick: () => void): HTMLButtonElement {
  return h(
    "button",
    { class: "nav-button", type: "button", title: label, "aria-label": label, "data-testid": testid, onclick },
    icon(paths, 15),
  );
}

export class TabBar {
  readonly el: HTMLElement;
  private readonly list: KeyedList<TabItem>;
  private readonly contextEl: HTMLElement;
  private readonly contextList: KeyedList<ContextEntry>;
  private readonly address: HTMLInputElement;
  private readonly newTab: HTMLButtonElement;
  private readonly navButtons: HTMLButtonElement[];
  private tabs: Tab[] = [];
  private entries: ContextEntry[] = [];
  private tick: ReturnType<typeof setInterval> | null = null;
  private enabled = false;
  /** The reader may run browser actions by hand (owner, controller); a viewer only watches. */
  private canNavigate = true;
  /** The reader may read tabs into the context and share them (owner, controller). */
  private canShare = true;
  /** What the address bar shows when nobody is editing it: the active tab's address (or one just submitted). */
  private shownUrl = "";
  /** A focus that came from a click: its mouseup must not undo the select-all. */
  private selectOnMouseUp = false;

  constructor(private readonly options: TabBarOptions) {
    const strip = h("div", {
      class: "tab-strip",
      "data-testid": "tab-bar",
      role: "tablist",
      "aria-label": "Browser tabs",
    });
    const handlers: TabHandlers = {
      select: (tab) => !tab.active && void this.run("switch_tab", { tab_id: tab.id }),
      close: (tab) => void this.run("close_tab", { tab_id: tab.id }),
      share: (tab, on) => this.enabled && this.canShare && this.options.share(tab.id, on),
    };
    this.list = new KeyedList(strip, (t) => t.tab.id, (t) => createTab(t, handlers));
    const contextItems = h("ul", { class: "ctx-list" });
    this.contextList = new KeyedList(
      contextItems,
      (e) => e.tab.id,
      (e) =>
        createContextItem(e, {
          refresh: (tabId) => this.enabled && this.canShare && this.options.refresh(tabId),
          remove: (tabId) => this.enabled && this.canShare && this.options.removeContext(tabId),
        }),
    );
    this.contextEl = h(
      "div",
      { class: "ctx-bar", "data-testid": "tab-context-bar", hidden: true },
      h(
        "div",
        { class: "ctx-bar-head" },
        h("span", { class: "ctx-bar-label" }, "Context"),
        h("span", { class: "ctx-bar-hint" }, "Shared tabs go with your next message; toggle one off to keep it out."),
      ),
      contextItems,
    );
    this.newTab = h(
      "button",
      {
        class: "tab-new",
        type: "button",
        "data-testid": "tab-new",
        title: "New tab",
        "aria-label": "New tab",
        onclick: () => void this.run("open_tab"),
      },
      icon(ICONS.plus, 14),
    );
    this.address = h("input", {
      class: "address-bar",
      "data-testid": "address-bar",
      type: "text",
      inputmode: "url",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      enterkeyhint: "go",
      placeholder: "Type an address and press Enter",
      "aria-label": "Address",
    });
    this.bindAddress();
    this.navButtons = [
      navButton(ICONS.back, "Back", "nav-back", () => void this.run("go_back")),
      navButton(ICONS.forward, "Forward", "nav-forward", () => void this.run("go_forward")),
      navButton(ICONS.reload, "Reload", "nav-reload", () => void this.run("refresh")),
    ];
    this.el = h(
      "div",
      { class: "tabs" },
      h("div", { class: "tab-row" }, strip, this.newTab),
      h(
        "div",
        { class: "nav-bar" },
        ...this.navButtons,
        h(
          "label",
          { class: "address-field" },
          h("span", { class: "address-dot", "aria-hidden": "true" }),
          this.address,
        ),
      ),
      this.contextEl,
    );
    this.setEnabled(false);
  }

  /** Enabled while a conversation is open. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled && this.editing) this.address.blur();
    this.renderControls();
  }

  /**
   * What the reader may do: a viewer sees the tabs, the address and the context but gets no navigation
   * (address bar read-only, no back / forward / reload, no new or closing tabs) and no share toggles.
   */
  setPermissions({ navigate, shareTabs }: { navigate: boolean; shareTabs: boolean }): void {
    if (navigate === this.canNavigate && shareTabs === this.canShare) return;
    this.canNavigate = navigate;
    this.canShare = shareTabs;
    this.el.classList.toggle("no-navigate", !navigate);
    this.el.classList.toggle("no-share", !shareTabs);
    if (!navigate && this.editing) this.address.blur();
    this.renderControls();
  }

  update({ tabs, shared, reading }: TabBarState): void {
    this.tabs = tabs;
    this.list.update(tabs.map((tab) => ({ tab, share: shareState(tab, shared, reading) })));
    this.entries = contextEntries(tabs, shared, reading);
    this.contextList.update(this.entries);
    this.contextEl.hidden = this.entries.length === 0;
    this.tickWhileNeeded();
    this.el.classList.toggle("tabs-empty", tabs.length === 0);
    this.shownUrl = shownAddress(tabs.find((t) => t.active)?.url);
    this.renderAddress();
    this.renderControls();
  }

  /** Keeps "read 2 min ago" true while the context bar shows. */
  private tickWhileNeeded(): void {
    const needed = this.entries.some((e) => !!e.context?.extracted_at);
    if (needed && this.tick === null) {
      this.tick = setInterval(() => this.contextList.update(this.entries), READ_AGO_TICK_MS);
    } else if (!needed && this.tick !== null) {
      clearInterval(this.tick);
      this.tick = null;
    }
  }

  private get editing(): boolean {
    return document.activeElement === this.address;
  }

  private renderAddress(): void {
    if (!this.editing && this.address.value !== this.shownUrl) this.address.value = this.shownUrl;
  }

  private renderControls(): void {
    const hasTab = this.tabs.some((t) => t.active);
    this.address.disabled = !this.enabled;
    this.address.readOnly = !this.canNavigate;
    this.address.placeholder = this.canNavigate ? "Type an address and press Enter" : "";
    setAttr(this.address, "title", this.canNavigate ? null : "Only the owner and controllers can navigate");
    this.newTab.disabled = !this.enabled;
    this.newTab.hidden = !this.canNavigate;
    for (const button of this.navButtons) {
      button.disabled = !this.enabled || !hasTab;
      button.hidden = !this.canNavigate;
    }
  }

  private async run(action: BrowserAction, args?: Record<string, unknown>): Promise<boolean> {
    if (!this.enabled || !this.canNavigate) return false;
    return this.options.act(action, args);
  }

  private bindAddress(): void {
    const input = this.address;
    input.addEventListener("focus", () => {
      input.select();
      this.selectOnMouseUp = true;
    });
    // Focusing click: keep everything selected (the click's mouseup would place the caret), as browsers do.
    input.addEventListener("mouseup", (e) => {
      if (!this.selectOnMouseUp) return;
      this.selectOnMouseUp = false;
      if (input.selectionStart === input.selectionEnd) {
        e.preventDefault();
        input.select();
      }
    });
    input.addEventListener("keydown", (e) => {
      this.selectOnMouseUp = false;
      if (e.isComposing) return;
      if (e.key === "Enter") {
        e.preventDefault();
        if (this.canNavigate) void this.submit();
      } else if (e.key === "Escape") {
        e.preventDefault();
        input.value = this.shownUrl;
        input.blur();
      }
    });
    // Leaving the bar without pressing Enter puts the tab's address back.
    input.addEventListener("blur", () => this.renderAddress());
  }

  private async submit(): Promise<void> {
    const input = this.address;
    const typed = input.value;
    const result = normalizeAddress(typed);
    if (result.error !== undefined) {
      this.options.notify(result.error);
      return;
    }
    input.value = result.url;
    const accepted = await this.run("navigate", { url: result.url });
    // Refused (a run is active …): the typed address stays, to try again.
    if (!accepted || input.value !== result.url) return;
    // Shown until the next tabs.updated says where the tab really is.
    this.shownUrl = result.url;
    if (this.editing) input.blur();
    this.renderAddress();
  }
}
