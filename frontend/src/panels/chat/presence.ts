// Who is watching a shared conversation.

import { ROLE_LABEL as ACCESS_LABEL, type PresenceEntry } from "../../access";
import { h, setAttr, setText, type Component } from "../../dom";
import { setPersonAvatar } from "../person";

/** One person watching the conversation: initial, name, role, since when. */
export function createPresenceItem(initial: PresenceEntry): Component<PresenceEntry> {
  const avatar = h("span", { class: "presence-avatar", "aria-hidden": "true" });
  const name = h("span", { class: "presence-name" });
  const role = h("span", { class: "presence-role", "data-testid": "presence-role" });
  const el = h("li", { class: "presence-item", "data-testid": "presence-item" }, avatar, name, role);
  const update = (entry: PresenceEntry): void => {
    setAttr(el, "data-username", entry.username);
    setAttr(el, "data-role", entry.role);
    setAttr(el, "data-me", entry.me ? "true" : null);
    el.className = `presence-item presence-${entry.role}${entry.me ? " me" : ""}`;
    setPersonAvatar(avatar, entry.username);
    setText(name, entry.me ? `${entry.username} (you)` : entry.username);
    setText(role, ACCESS_LABEL[entry.role]);
    const since = entry.since ? new Date(entry.since) : null;
    const when =
      since && !Number.isNaN(since.getTime())
        ? ` · here since ${since.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
        : "";
    setAttr(el, "title", `${entry.username} · ${ACCESS_LABEL[entry.role].toLowerCase()}${when}`);
  };
  update(initial);
  return { el, update };
}
