// Tab bar of the agent's browser session, from `tabs.updated`: favicon, title, active tab highlighted;
// click a tab to switch to it, × to close it, + for a new one. Underneath, Back / Forward / Reload and an
// address bar showing the active tab's address, which you can edit (Enter navigates). Each of these runs
// a browser action by hand (POST /api/conversations/<id>/actions/).

import type { BrowserAction, Tab } from "../api/types";
import { h, icon, ICONS, KeyedList, setAttr, setText, type Component } from "../dom";
import { hostOf } from "../format";

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
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    if (name !== "http" && name !== "https") return { error: notWeb(name) };
    if (text.length === scheme[0].length) return { error: `“${text}” is not a complete web address.` };
    return { url: text };
  }
  if (text.startsWith("//")) return { url: `https:${text}` };
  // "mailto:…", "about:blank", but not a host and port ("localhost:8000", "example.com:8080/a").
  const opaque = /^([a-z][a-z\d+.-]*):(?!\d+(?:[/?#]|$))/i.exec(text);
  if (opaque) return { error: notWeb(opaque[1]!.toLowerCase()) };
  const host = text
    .split(/[/?#]/, 1)[0]!
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
}

interface TabHandlers {
  select: (tab: Tab) => void;
  close: (tab: Tab) => void;
}

function createTab(initial: Tab, handlers: TabHandlers): Component<Tab> {
  let current = initial;
  const favicon = h("img", { class: "tab-favicon", alt: "", width: "16", height: "16" });
  const fallback = icon(ICONS.globe, 14);
  fallback.classList.add("tab-favicon-fallback");
  const title = h("span", { class: "tab-title" });
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
    close,
  );
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
  const update = (tab: Tab): void => {
    current = tab;
    const name = tab.title || hostOf(tab.url) || "New tab";
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

function navButton(paths: string, label: string, testid: string, onclick: () => void): HTMLButtonElement {
  return h(
    "button",
    { class: "nav-button", type: "button", title: label, "aria-label": label, "data-testid": testid, onclick },
    icon(paths, 15),
  );
}

export class TabBar {
  readonly el: HTMLElement;
  private readonly list: KeyedList<Tab>;
  private readonly address: HTMLInputElement;
  private readonly newTab: HTMLButtonElement;
  private readonly navButtons: HTMLButtonElement[];
  private tabs: Tab[] = [];
  private enabled = false;
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
    };
    this.list = new KeyedList(strip, (t) => t.id, (t) => createTab(t, handlers));
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
    );
    this.setEnabled(false);
  }

  /** Enabled while a conversation is open. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled && this.editing) this.address.blur();
    this.renderControls();
  }

  update(tabs: Tab[]): void {
    this.tabs = tabs;
    this.list.update(tabs);
    this.el.classList.toggle("tabs-empty", tabs.length === 0);
    this.shownUrl = shownAddress(tabs.find((t) => t.active)?.url);
    this.renderAddress();
    this.renderControls();
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
    this.newTab.disabled = !this.enabled;
    for (const button of this.navButtons) button.disabled = !this.enabled || !hasTab;
  }

  private async run(action: BrowserAction, args?: Record<string, unknown>): Promise<boolean> {
    if (!this.enabled) return false;
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
        void this.submit();
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
