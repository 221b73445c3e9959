// One tab in the context bar: when it was read, a refresh button, a note when the page was cut or unreadable.

import { h, icon, ICONS, present, setAttr, setText, type Component } from "../../dom";
import { contextNote, readAgo, type ContextEntry } from "../../sharing";
import { tabName } from "./tab";

export interface ContextHandlers {
  refresh: (tabId: string) => void;
  remove: (tabId: string) => void;
}

export function createContextItem(initial: ContextEntry, handlers: ContextHandlers): Component<ContextEntry> {
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
