// Tab bar of the agent's browser session, from `tabs.updated`: favicon, title, active tab highlighted,
// and the active tab's address underneath.

import type { Tab } from "../api/types";
import { h, icon, ICONS, KeyedList, setAttr, setText, type Component } from "../dom";
import { hostOf } from "../format";

function createTab(initial: Tab): Component<Tab> {
  const favicon = h("img", { class: "tab-favicon", alt: "", width: "16", height: "16" });
  const fallback = icon(ICONS.globe, 14);
  fallback.classList.add("tab-favicon-fallback");
  const title = h("span", { class: "tab-title" });
  const el = h("div", { class: "tab", "data-testid": "tab", role: "tab" }, favicon, fallback, title);
  favicon.addEventListener("error", () => {
    favicon.hidden = true;
    fallback.style.display = "";
  });
  const update = (tab: Tab): void => {
    setAttr(el, "data-active", tab.active ? "true" : "false");
    setAttr(el, "aria-selected", tab.active ? "true" : "false");
    setAttr(el, "data-tab-id", tab.id);
    setAttr(el, "title", `${tab.title || "Untitled"}\n${tab.url}`);
    el.classList.toggle("active", tab.active);
    setText(title, tab.title || hostOf(tab.url) || "New tab");
    const hasIcon = !!tab.favicon;
    if (hasIcon && favicon.getAttribute("src") !== tab.favicon) favicon.src = tab.favicon;
    favicon.hidden = !hasIcon;
    fallback.style.display = hasIcon ? "none" : "";
  };
  update(initial);
  return { el, update };
}

export class TabBar {
  readonly el: HTMLElement;
  private readonly list: KeyedList<Tab>;
  private readonly address: HTMLElement;

  constructor() {
    const strip = h("div", {
      class: "tab-strip",
      "data-testid": "tab-bar",
      role: "tablist",
      "aria-label": "Browser tabs",
    });
    this.list = new KeyedList(strip, (t) => t.id, createTab);
    this.address = h("div", { class: "address-bar", "data-testid": "address-bar" });
    this.el = h("div", { class: "tabs" }, strip, this.address);
    this.update([]);
  }

  update(tabs: Tab[]): void {
    this.list.update(tabs);
    this.el.classList.toggle("tabs-empty", tabs.length === 0);
    const active = tabs.find((t) => t.active);
    setText(this.address, active?.url ?? "");
    this.address.hidden = !active;
  }
}
