// The share dialog's parts: a role picker, a copy button, a person with access and an expiring link.

import { ROLE_DESCRIPTION, ROLE_LABEL, expiryLabel, shareLinkUrl } from "../../access";
import type { Share, ShareRole } from "../../api/types";
import { copyText } from "../../clipboard";
import { h, icon, ICONS, setAttr, setText, type Component } from "../../dom";
import { setPersonAvatar } from "../person";

const SHARE_ROLES: readonly ShareRole[] = ["viewer", "controller"];

export function roleSelect(testid: string, label: string, value: ShareRole = "viewer"): HTMLSelectElement {
  const select = h(
    "select",
    { class: "share-select", "data-testid": testid, "aria-label": label },
    ...SHARE_ROLES.map((role) => h("option", { value: role, title: ROLE_DESCRIPTION[role] }, ROLE_LABEL[role])),
  );
  select.value = value;
  return select;
}

export function copyButton(testid: string, text: () => string): HTMLButtonElement {
  const label = h("span", null, "Copy");
  const button = h(
    "button",
    { class: "btn btn-secondary btn-sm", type: "button", "data-testid": testid, title: "Copy the link" },
    icon(ICONS.copy, 13),
    label,
  );
  let reset: number | null = null;
  button.addEventListener("click", () => void (async () => {
    const ok = await copyText(text());
    setText(label, ok ? "Copied" : "Copy failed");
    button.classList.toggle("copied", ok);
    if (reset !== null) window.clearTimeout(reset);
    reset = window.setTimeout(() => {
      setText(label, "Copy");
      button.classList.remove("copied");
    }, 2000);
  })());
  return button;
}

export interface ShareRowActions {
  setRole(share: Share, role: ShareRole): Promise<void>;
  revoke(share: Share): Promise<void>;
  origin: string;
}

/** One person with access: name, how they got it, their role (changeable), Remove. */
export function createPersonRow(initial: Share, actions: ShareRowActions): Component<Share> {
  let current = initial;
  const avatar = h("span", { class: "presence-avatar", "aria-hidden": "true" });
  const name = h("span", { class: "share-name" });
  const meta = h("span", { class: "share-meta" });
  const select = roleSelect("share-role-select", "Role");
  const revoke = h(
    "button",
    { class: "btn btn-ghost btn-sm share-revoke", type: "button", "data-testid": "share-revoke" },
    "Remove",
  );
  const el = h(
    "li",
    { class: "share-item", "data-testid": "share-item" },
    avatar,
    h("span", { class: "share-who" }, name, meta),
    select,
    revoke,
  );
  select.addEventListener("change", () => void actions.setRole(current, select.value as ShareRole));
  revoke.addEventListener("click", () => void actions.revoke(current));
  const update = (share: Share): void => {
    current = share;
    const username = share.user ?? "";
    setAttr(el, "data-username", username);
    setAttr(el, "data-share-id", String(share.id));
    setAttr(el, "data-role", share.role);
    el.classList.toggle("expired", share.expired);
    setPersonAvatar(avatar, username || null);
    setText(name, username);
    const parts = [share.via_link !== null ? "joined through a link" : "", expiryLabel(share)].filter(Boolean);
    setText(meta, parts.join(" · "));
    meta.hidden = parts.length === 0;
    if (document.activeElement !== select) select.value = share.role;
    setAttr(select, "aria-label", `Role of ${username}`);
    setAttr(revoke, "aria-label", `Remove ${username}'s access`);
    setAttr(revoke, "title", `Remove ${username}'s access: their open page is cut at once`);
  };
  update(initial);
  return { el, update };
}

/** One link: its address (copy), role (changeable), expiry, Revoke. */
export function createLinkRow(initial: Share, actions: ShareRowActions): Component<Share> {
  let current = initial;
  const url = h("span", { class: "share-name share-link-address", "data-testid": "share-link-item-url" });
  const meta = h("span", { class: "share-meta" });
  const select = roleSelect("share-role-select", "Role of people opening the link");
  const revoke = h(
    "button",
    { class: "btn btn-ghost btn-sm share-revoke", type: "button", "data-testid": "share-revoke" },
    "Revoke",
  );
  const copy = copyButton("share-link-item-copy", () => (current.token ? shareLinkUrl(current.token, actions.origin) : ""));
  const el = h(
    "li",
    { class: "share-item share-link-item", "data-testid": "share-link-item" },
    h("span", { class: "share-link-icon", "aria-hidden": "true" }, icon(ICONS.link, 14)),
    h("span", { class: "share-who" }, url, meta),
    copy,
    select,
    revoke,
  );
  select.addEventListener("change", () => void actions.setRole(current, select.value as ShareRole));
  revoke.addEventListener("click", () => void actions.revoke(current));
  const update = (share: Share): void => {
    current = share;
    const address = share.token ? shareLinkUrl(share.token, actions.origin) : "";
    setAttr(el, "data-share-id", String(share.id));
    setAttr(el, "data-role", share.role);
    el.classList.toggle("expired", share.expired);
    // The address's end tells links apart; the whole one is in the tooltip and what Copy copies.
    setText(url, share.token ? `…/share/${share.token.slice(0, 8)}…` : "link");
    setAttr(url, "title", address);
    setAttr(url, "data-url", address);
    setText(meta, [`made by ${share.created_by}`, expiryLabel(share)].filter(Boolean).join(" · "));
    if (document.activeElement !== select) select.value = share.role;
    setAttr(revoke, "title", "Revoke the link: everyone who joined through it loses access at once");
  };
  update(initial);
  return { el, update };
}
