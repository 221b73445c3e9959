// Tab bar of the agent's browser session, from `tabs.updated`: favicon, title, active tab highlighted;
// click a tab to switch to it, × to close it, + for a new one. Underneath, Back / Forward / Reload and an
// address bar showing the active tab's address, which you can edit (Enter navigates). Each of these runs
// a browser action by hand (POST /api/conversations/<id>/actions/).
// Each tab also has a "share with the agent" toggle (SPEC §4): a shared tab is read into the conversation's
// context and goes with the next messages. The context bar under the address bar lists the tabs in the
// context: when each was read, a refresh button, a note when the page was cut or could not be read.

import type { BrowserAction, Tab } from "../api/types";
import { h, icon, ICONS, KeyedList, present, setAttr, setText, type Component } from "../dom";
import { hostOf } from "../format";
import { contextEntries, contextNote, readAgo, shareState, type ContextEntry, type ShareState } from "../sharing";

// --- Pure parts (unit-tested) ---

export type AddressResult = { url: string; error?: undefined } | { url?: undefined; error: string };

const LOOPBACK = /^(localhost|[\w-]+\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|::1)$/;

/**
 * What the address bar navigates to for what was typed: an http(s) address as is; without a scheme,
 * `https://` in front — `http://` for this machine (localhost, 127.0.0.1, [::1]), which rarely speaks TLS.
 * Anything else the browser could not open (mailto:, javascript:, words with spaces) is an error to show.
 */
export function normalizeAddress(raw: string): AddressResult {
  const text = raw.trim();
  if (!text) return { error: "Type an address, such as example.com." };
  if (/\s/.test(text)) return { error: `“${text}” is not a web address. Type one such as example.com.` };
  const scheme = /^([a-z][a-z\d+.-]*):\/\//i.exec(text);
  const name = scheme?.[1]?.toLowerCase();
  if (scheme && name) {
    if (name !== "http" && name !== "https") return { error: notWeb(name) };
    if (text.length === scheme[0].length) return { error: `“${text}” is not a complete web address.` };
    return { url: text };
  }
  if (text.startsWith("//")) return { url: `https:${text}` };
  // "mailto:…", "about:blank", but not a host and port ("localhost:8000", "example.com:8080/a").
  const opaque = /^([a-z][a-z\d+.-]*):(?!\d+(?:[/?#]|$))/i.exec(text)?.[1];
  if (opaque) return { error: notWeb(opaque.toLowerCase()) };
  const host = (text.split(/[/?#]/, 1)[0] ?? "")
    .replace(/^.*@/, "")
    .replace(/:\d*$/, "")
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
  return { url: `${LOOPBACK.test(host) ? "http" : "https"}://${text}` };
}

function notWeb(scheme: string): string {
  return `${scheme}: addresses cannot be opened here; only web pages (http and https).`;
}

/** The address shown for a tab: nothing for a blank tab, so the placeholder invites typing one. */
export function shownAddress(url: string | undefined): string {
  return !url || url === "about:blank" ? "" : url;
}

// --- The component ---

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

interface TabItem {
  tab: Tab;
  share: ShareState;
}

interface TabHandlers {
  select: (tab: Tab) => void;
  close: (tab: Tab) => void;
  share: (tab: Tab, on: boolean) => void;
}

function tabName(tab: Tab): string {
  return tab.title || hostOf(tab.url) || "New tab";
}

const SHARE_TITLE: Record<ShareState, string> = {
  off: "Share this tab with the agent: it is read and goes with your next messages",
  reading: "Reading the page for the agent…",
  shared: "Shared with the agent's next messages. Click to stop sharing it (it stays in the context).",
  unread: "Shared, but the page has not been read: use its refresh button in the context list",
};

function createTab(initial: TabItem, handlers: TabHandlers): Component<TabItem> {
  let current = initial.tab;
  let currentShare = initial.share;
  const favicon = h("img", { class: "tab-favicon", alt: "", width: "16", height: "16" });
  const fallback = icon(ICONS.globe, 14);
  fallback.classList.add("tab-favicon-fallback");
  const title = h("span", { class: "tab-title" });
  const shareIcon = icon(ICONS.share, 13);
  const shareSpinner = h("span", { class: "spinner tab-share-spinner", "aria-hidden": "true" });
  const share = h(
    "button",
    { class: "tab-share", type: "button", "data-testid": "tab-share", "aria-pressed": "false" },
    shareIcon,
    shareSpinner,
  );
  const close = h(
    "button",
    { class: "tab-close", type: "button", "data-testid": "tab-close", tabindex: "-1" },
    icon(ICONS.close, 12),
  );
  const el = h(
    "div",
    { class: "tab", "data-testid": "tab", role: "tab", tabindex: "0" },
    favicon,
    fallback,
    title,
    share,
    close,
  );
  share.addEventListener("click", (e) => {
    e.stopPropagation();
    handlers.share(current, currentShare === "off");
  });
  share.addEventListener("keydown", (e) => e.stopPropagation());
  favicon.addEventListener("error", () => {
    favicon.hidden = true;
    fallback.style.display = "";
  });
  close.addEventListener("click", (e) => {
    e.stopPropagation();
    handlers.close(current);
  });
  el.addEventListener("click", () => handlers.select(current));
  el.addEventListener("keydown", (e) => {
    if (e.target !== el) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      handlers.select(current);
    } else if (e.key === "Delete") {
      e.preventDefault();
      handlers.close(current);
    }
  });
  // Middle click closes, as in a browser (and never starts autoscroll).
  el.addEventListener("mousedown", (e) => e.button === 1 && e.preventDefault());
  el.addEventListener("auxclick", (e) => {
    if (e.button !== 1) return;
    e.preventDefault();
    handlers.close(current);
  });
  const update = ({ tab, share: state }: TabItem): void => {
    current = tab;
    currentShare = state;
    const name = tabName(tab);
    setAttr(el, "data-shared", state === "off" ? "false" : "true");
    el.classList.toggle("shared", state !== "off");
    setAttr(share, "aria-pressed", state === "off" ? "false" : "true");
    setAttr(share, "data-state", state);
    setAttr(share, "aria-busy", state === "reading" ? "true" : null);
    setAttr(share, "aria-label", state === "off" ? `Share ${name} with the agent` : `Stop sharing ${name} with the agent`);
    setAttr(share, "title", SHARE_TITLE[state]);
    shareSpinner.hidden = state !== "reading";
    shareIcon.style.display = state === "reading" ? "none" : "";
    setAttr(el, "data-active", tab.active ? "true" : "false");
    setAttr(el, "aria-selected", tab.active ? "true" : "false");
    setAttr(el, "data-tab-id", tab.id);
    setAttr(el, "title", `${tab.title || "Untitled"}\n${tab.url}`);
    setAttr(close, "aria-label", `Close ${name}`);
    setAttr(close, "title", "Close tab");
    el.classList.toggle("active", tab.active);
    setText(title, name);
    const hasIcon = !!tab.favicon;
    if (hasIcon && favicon.getAttribute("src") !== tab.favicon) favicon.src = tab.favicon;
    favicon.hidden = !hasIcon;
    fallback.style.display = hasIcon ? "none" : "";
  };
  update(initial);
  return { el, update };
}

// --- The context bar: the tabs in the conversation's context ---

interface ContextHandlers {
  refresh: (tabId: string) => void;
  remove: (tabId: string) => void;
}

function createContextItem(initial: ContextEntry, handlers: ContextHandlers): Component<ContextEntry> {
  let current = initial;
  const title = h("span", { class: "ctx-title" });
  const state = h("span", { class: "ctx-state" });
  const readAt = h("span", { class: "ctx-read-at", "data-testid": "tab-read-at" });
  const reading = h(
    "span",
    { class: "ctx-reading", "data-testid": "tab-reading", role: "status" },
    h("span", { class: "spinner", "aria-hidden": "true" }),
    "Reading…",
  );
  const refresh = h(
    "button",
    {
      class: "ctx-button",
      type: "button",
      "data-testid": "tab-refresh",
      title: "Read the page again (the agent gets what it shows now)",
      onclick: () => handlers.refresh(current.tab.id),
    },
    icon(ICONS.reload, 13),
  );
  const remove = h(
    "button",
    {
      class: "ctx-button",
      type: "button",
      "data-testid": "tab-context-remove",
      title: "Remove from the context",
      onclick: () => handlers.remove(current.tab.id),
    },
    icon(ICONS.close, 12),
  );
  const note = h("div", { class: "ctx-note", "data-testid": "tab-context-note" });
  const head = h("div", { class: "ctx-head" }, icon(ICONS.share, 12), title, state, refresh, remove);
  const el = h("li", { class: "ctx-item", "data-testid": "tab-context" }, head, note);
  const update = (entry: ContextEntry): void => {
    current = entry;
    const { tab, context } = entry;
    setAttr(el, "data-tab-id", tab.id);
    setAttr(el, "data-shared", entry.shared ? "true" : "false");
    setAttr(el, "data-reading", entry.reading ? "true" : "false");
    el.classList.toggle("off", !entry.shared);
    const name = context?.title || tabName(tab);
    setText(title, name);
    setAttr(title, "title", `${name}\n${context?.url || tab.url}`);
    setText(state, !context && !entry.reading ? "not read yet" : entry.shared ? "shared" : "not shared");
    state.className = `ctx-state ${entry.shared ? "on" : ""}`;
    // In the DOM only with a read time, so tab-read-at always says when the page was read.
    const ago = readAgo(context?.extracted_at);
    present(head, readAt, !!ago, refresh);
    setText(readAt, ago);
    setAttr(readAt, "title", context?.extracted_at ? new Date(context.extracted_at).toLocaleString() : null);
    present(head, reading, entry.reading, refresh);
    refresh.disabled = entry.reading;
    setAttr(refresh, "aria-label", `Read ${name} again`);
    setAttr(remove, "aria-label", `Remove ${name} from the context`);
    present(head, remove, !!context);
    const info = contextNote(context);
    present(el, note, !!info);
    if (info) {
      setText(note, info.text);
      setAttr(note, "data-kind", info.kind);
    }
  };
  update(initial);
  return { el, update };
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
