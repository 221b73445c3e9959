// One tab in the tab bar: favicon, title, the share toggle, close.

import type { Tab } from "../../api/types";
import { h, icon, ICONS, setAttr, setText, type Component } from "../../dom";
import { hostOf } from "../../format";
import type { ShareState } from "../../sharing";

export interface TabItem {
  tab: Tab;
  share: ShareState;
}

export interface TabHandlers {
  select: (tab: Tab) => void;
  close: (tab: Tab) => void;
  share: (tab: Tab, on: boolean) => void;
}

export function tabName(tab: Tab): string {
  return tab.title || hostOf(tab.url) || "New tab";
}

const SHARE_TITLE: Record<ShareState, string> = {
  off: "Share this tab with the agent: it is read and goes with your next messages",
  reading: "Reading the page for the agent…",
  shared: "Shared with the agent's next messages. Click to stop sharing it (it stays in the context).",
  unread: "Shared, but the page has not been read: use its refresh button in the context list",
};

export function createTab(initial: TabItem, handlers: TabHandlers): Component<TabItem> {
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
