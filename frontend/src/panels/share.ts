// The owner's share dialog (SPEC §7): share the conversation with a teammate by username as a viewer or a
// controller, see who has access and change their role or remove it, and make expiring links to copy.
// Removing someone cuts their open page at once (the server closes their websocket).

import {
  LINK_LIFETIMES,
  ROLE_DESCRIPTION,
  ROLE_LABEL,
  expiryLabel,
  shareLinkUrl,
  splitShares,
} from "../access";
import { copyText } from "../clipboard";
import type { ApiClient } from "../api/client";
import { errorText } from "../errors";
import type { Id, Share, ShareRole } from "../api/types";
import { h, icon, ICONS, KeyedList, replaceChildren, setAttr, setText, type Component } from "../dom";

export interface ShareDialogOptions {
  api: ApiClient;
  conversationId: Id;
  title: string;
  /** Where links point: `<origin>/share/<token>`. */
  origin?: string;
}

const SHARE_ROLES: readonly ShareRole[] = ["viewer", "controller"];

function roleSelect(testid: string, label: string, value: ShareRole = "viewer"): HTMLSelectElement {
  const select = h(
    "select",
    { class: "share-select", "data-testid": testid, "aria-label": label },
    ...SHARE_ROLES.map((role) => h("option", { value: role, title: ROLE_DESCRIPTION[role] }, ROLE_LABEL[role])),
  );
  select.value = value;
  return select;
}

function copyButton(testid: string, text: () => string): HTMLButtonElement {
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

interface ShareRowActions {
  setRole(share: Share, role: ShareRole): Promise<void>;
  revoke(share: Share): Promise<void>;
  origin: string;
}

/** One person with access: name, how they got it, their role (changeable), Remove. */
function createPersonRow(initial: Share, actions: ShareRowActions): Component<Share> {
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
    setText(avatar, username.charAt(0).toUpperCase());
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
function createLinkRow(initial: Share, actions: ShareRowActions): Component<Share> {
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

export class ShareDialog {
  readonly el: HTMLElement;
  private readonly dialog: HTMLElement;
  private readonly username: HTMLInputElement;
  private readonly role: HTMLSelectElement;
  private readonly roleHint: HTMLElement;
  private readonly submit: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private readonly people: KeyedList<Share>;
  private readonly peopleEmpty: HTMLElement;
  private readonly links: KeyedList<Share>;
  private readonly linkRole: HTMLSelectElement;
  private readonly linkLifetime: HTMLSelectElement;
  private readonly linkCreate: HTMLButtonElement;
  private readonly linkUrl: HTMLInputElement;
  private readonly linkResult: HTMLElement;
  private readonly loading: HTMLElement;
  private readonly origin: string;
  private shares: Share[] = [];
  /** Counts changes made here, so a list asked for before one of them never overwrites it. */
  private changes = 0;
  private readonly previousFocus: HTMLElement | null;
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") this.close();
  };

  constructor(private readonly options: ShareDialogOptions) {
    this.origin = options.origin ?? location.origin;
    this.previousFocus = document.activeElement as HTMLElement | null;
    const rowActions: ShareRowActions = {
      setRole: (share, role) => this.setRole(share, role),
      revoke: (share) => this.revoke(share),
      origin: this.origin,
    };

    this.username = h("input", {
      class: "share-input",
      type: "text",
      name: "username",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      placeholder: "Teammate's username",
      "aria-label": "Teammate's username",
      "data-testid": "share-username",
      required: true,
    });
    this.role = roleSelect("share-role", "Role");
    this.roleHint = h("p", { class: "share-hint" });
    this.role.addEventListener("change", () => this.renderRoleHint());
    this.submit = h(
      "button",
      { class: "btn btn-primary btn-sm", type: "submit", "data-testid": "share-submit" },
      "Share",
    );
    this.status = h("p", { class: "share-status", "data-testid": "share-status", role: "status", hidden: true });
    this.error = h("div", { class: "form-error", "data-testid": "share-error", role: "alert", hidden: true });
    const form = h(
      "form",
      {
        class: "share-form",
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.share();
        },
      },
      this.username,
      this.role,
      this.submit,
    );

    const peopleList = h("ul", { class: "share-list", "data-testid": "share-list", "aria-label": "People with access" });
    this.people = new KeyedList(peopleList, (s) => String(s.id), (s) => createPersonRow(s, rowActions));
    this.peopleEmpty = h("p", { class: "share-empty" }, "Only you so far.");
    this.loading = h("div", { class: "share-loading" }, h("span", { class: "spinner" }), "Loading who has access…");

    this.linkRole = roleSelect("share-link-role", "Role of people opening the link");
    this.linkLifetime = h(
      "select",
      { class: "share-select", "data-testid": "share-link-lifetime", "aria-label": "The link works for" },
      ...LINK_LIFETIMES.map((l) => h("option", { value: String(l.minutes) }, l.label)),
    );
    this.linkLifetime.value = String(24 * 60);
    this.linkCreate = h(
      "button",
      { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "share-link-create", onclick: () => void this.createLink() },
      icon(ICONS.link, 13),
      h("span", null, "Create link"),
    );
    this.linkUrl = h("input", {
      class: "share-link-field",
      type: "text",
      readonly: true,
      "data-testid": "share-link-url",
      "aria-label": "The new link",
    });
    this.linkUrl.addEventListener("focus", () => this.linkUrl.select());
    this.linkResult = h(
      "div",
      { class: "share-link-result", hidden: true },
      this.linkUrl,
      copyButton("share-link-copy", () => this.linkUrl.value),
    );
    const linkList = h("ul", { class: "share-list", "data-testid": "share-links", "aria-label": "Links" });
    this.links = new KeyedList(linkList, (s) => String(s.id), (s) => createLinkRow(s, rowActions));

    const closeButton = h(
      "button",
      {
        class: "btn btn-ghost btn-icon",
        type: "button",
        "aria-label": "Close",
        title: "Close",
        "data-testid": "share-close",
        onclick: () => this.close(),
      },
      icon(ICONS.close, 18),
    );
    this.dialog = h(
      "div",
      {
        class: "modal share-modal",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": "share-title",
        "data-testid": "share-dialog",
      },
      h(
        "header",
        { class: "modal-head" },
        h("h2", { id: "share-title" }, "Share"),
        h("span", { class: "modal-sub share-subject" }, options.title.trim() || "New conversation"),
        h("span", { class: "step-spacer" }),
        closeButton,
      ),
      h(
        "div",
        { class: "modal-body share-body" },
        h(
          "section",
          { class: "share-section" },
          h("h3", null, "Invite a teammate"),
          form,
          this.roleHint,
          this.error,
          this.status,
        ),
        h(
          "section",
          { class: "share-section" },
          h("h3", null, "People with access"),
          this.loading,
          peopleList,
          this.peopleEmpty,
        ),
        h(
          "section",
          { class: "share-section" },
          h("h3", null, "Links"),
          h(
            "p",
            { class: "share-hint" },
            "Anyone signed in to Hive who opens the link joins with its role until it expires.",
          ),
          h("div", { class: "share-link-form" }, this.linkRole, h("span", { class: "share-for" }, "for"), this.linkLifetime, this.linkCreate),
          this.linkResult,
          linkList,
        ),
      ),
    );
    this.el = h("div", { class: "modal-backdrop" }, this.dialog);
    this.el.addEventListener("mousedown", (e) => {
      if (e.target === this.el) this.close();
    });
    this.renderRoleHint();
    this.render();
  }

  /** Shows the dialog and loads who has access. */
  open(): void {
    document.addEventListener("keydown", this.onKey);
    document.body.appendChild(this.el);
    this.username.focus();
    void this.load();
  }

  close(): void {
    if (!this.el.isConnected) return;
    this.el.remove();
    document.removeEventListener("keydown", this.onKey);
    this.previousFocus?.focus();
  }

  get isOpen(): boolean {
    return this.el.isConnected;
  }

  private async load(): Promise<void> {
    const changesBefore = this.changes;
    try {
      const shares = await this.options.api.listShares(this.options.conversationId);
      if (!this.isOpen) return;
      // A share made or changed while the list was on its way: the list is stale, ask again.
      if (this.changes !== changesBefore) return void this.load();
      this.shares = shares;
    } catch (err) {
      this.showError(`Could not load who has access: ${errorText(err)}`);
    } finally {
      this.loading.remove();
      this.render();
    }
  }

  private render(): void {
    const { people, links } = splitShares(this.shares);
    this.people.update(people);
    this.peopleEmpty.hidden = people.length > 0 || this.loading.isConnected;
    this.links.update(links);
  }

  private renderRoleHint(): void {
    setText(this.roleHint, `${ROLE_LABEL[this.role.value as ShareRole]}: ${ROLE_DESCRIPTION[this.role.value as ShareRole].toLowerCase()}.`);
  }

  private showError(text: string | null): void {
    this.error.hidden = !text;
    replaceChildren(this.error, text ? h("div", null, text) : null);
  }

  private showStatus(text: string | null): void {
    this.status.hidden = !text;
    setText(this.status, text ?? "");
  }

  /** Puts a share the API answered with into the list (a re-shared teammate's row changes in place). */
  private upsert(share: Share): void {
    this.changes += 1;
    const exists = this.shares.some((s) => s.id === share.id);
    this.shares = exists ? this.shares.map((s) => (s.id === share.id ? share : s)) : [...this.shares, share];
    this.render();
  }

  private async share(): Promise<void> {
    const username = this.username.value.trim();
    if (!username) {
      this.showError("Type the username of the teammate to share with.");
      this.username.focus();
      return;
    }
    const role = this.role.value as ShareRole;
    this.submit.disabled = true;
    this.showError(null);
    this.showStatus(null);
    try {
      const share = await this.options.api.createShare(this.options.conversationId, { username, role });
      this.upsert(share);
      this.username.value = "";
      this.showStatus(`Shared with ${share.user ?? username} as a ${ROLE_LABEL[share.role].toLowerCase()}.`);
    } catch (err) {
      this.showError(errorText(err));
    } finally {
      this.submit.disabled = false;
      this.username.focus();
    }
  }

  private async setRole(share: Share, role: ShareRole): Promise<void> {
    if (share.role === role) return;
    this.showError(null);
    this.showStatus(null);
    try {
      this.upsert(await this.options.api.updateShare(this.options.conversationId, share.id, role));
      const whom = share.kind === "link" ? "People who open the link" : share.user;
      this.showStatus(`${whom} can now ${role === "controller" ? "act in the conversation" : "only watch"}.`);
      // A link's new role reaches everyone who joined through it.
      if (share.kind === "link") void this.load();
    } catch (err) {
      this.showError(errorText(err));
      this.render(); // the select shows the role still in force
    }
  }

  private async revoke(share: Share): Promise<void> {
    this.showError(null);
    this.showStatus(null);
    try {
      await this.options.api.revokeShare(this.options.conversationId, share.id);
      // Revoking a link also removes everyone who joined through it.
      this.changes += 1;
      this.shares = this.shares.filter((s) => s.id !== share.id && s.via_link !== share.id);
      this.render();
      this.showStatus(share.kind === "link" ? "The link was revoked." : `${share.user} no longer has access.`);
    } catch (err) {
      this.showError(errorText(err));
    }
  }

  private async createLink(): Promise<void> {
    this.linkCreate.disabled = true;
    this.showError(null);
    try {
      const link = await this.options.api.createShareLink(this.options.conversationId, {
        role: this.linkRole.value as ShareRole,
        expires_in_minutes: Number(this.linkLifetime.value),
      });
      this.upsert(link);
      this.linkUrl.value = link.token ? shareLinkUrl(link.token, this.origin) : "";
      this.linkResult.hidden = !this.linkUrl.value;
      this.linkUrl.focus();
    } catch (err) {
      this.showError(errorText(err));
    } finally {
      this.linkCreate.disabled = false;
    }
  }
}

/** Opens the share dialog for a conversation; returns it (to close it when the conversation closes). */
export function openShareDialog(options: ShareDialogOptions): ShareDialog {
  const dialog = new ShareDialog(options);
  dialog.open();
  return dialog;
}
