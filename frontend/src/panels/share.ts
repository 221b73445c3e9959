// The owner's share dialog (SPEC §7): share the conversation with a teammate by username as a viewer or a
// controller, see who has access and change their role or remove it, and make expiring links to copy.
// Removing someone cuts their open page at once (the server closes their websocket).

import { ROLE_DESCRIPTION, ROLE_LABEL, splitShares } from "../access";
import type { ApiClient } from "../api/client";
import { errorText } from "../errors";
import type { Id, Share, ShareRole } from "../api/types";
import { h, KeyedList, replaceChildren, setText } from "../dom";
import { Modal } from "./modal";
import { LinkForm } from "./share/linkform";
import { createLinkRow, createPersonRow, roleSelect, type ShareRowActions } from "./share/rows";

export interface ShareDialogOptions {
  api: ApiClient;
  conversationId: Id;
  title: string;
  /** Where links point: `<origin>/share/<token>`. */
  origin?: string;
}

export class ShareDialog {
  readonly el: HTMLElement;
  private readonly modal: Modal;
  private readonly username: HTMLInputElement;
  private readonly role: HTMLSelectElement;
  private readonly roleHint: HTMLElement;
  private readonly submit: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private readonly people: KeyedList<Share>;
  private readonly peopleEmpty: HTMLElement;
  private readonly links: KeyedList<Share>;
  private readonly loading: HTMLElement;
  private readonly origin: string;
  private shares: Share[] = [];
  /** Counts changes made here, so a list asked for before one of them never overwrites it. */
  private changes = 0;

  constructor(private readonly options: ShareDialogOptions) {
    this.origin = options.origin ?? location.origin;
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
    this.peopleEmpty = h("p", { class: "share-empty" }, "Only you so far. Add a teammate by their username above, or make a link below.");
    this.loading = h("div", { class: "share-loading" }, h("span", { class: "spinner" }), "Loading who has access…");

    const linkForm = new LinkForm({
      origin: this.origin,
      create: async (input) => {
        const link = await this.options.api.createShareLink(this.options.conversationId, input);
        this.upsert(link);
        return link;
      },
      showError: (text) => this.showError(text),
    });
    const linkList = h("ul", { class: "share-list", "data-testid": "share-links", "aria-label": "Links" });
    this.links = new KeyedList(linkList, (s) => String(s.id), (s) => createLinkRow(s, rowActions));

    const body = h(
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
        h("p", { class: "share-hint" }, "Anyone signed in to Hive who opens the link joins with its role until it expires."),
        linkForm.el,
        linkForm.result,
        linkList,
      ),
    );
    this.modal = new Modal({
      className: "share-modal",
      titleId: "share-title",
      title: "Share",
      subtitle: options.title.trim() || "New conversation",
      subtitleClass: "share-subject",
      testid: "share-dialog",
      closeTestid: "share-close",
      body,
    });
    this.el = this.modal.el;
    this.renderRoleHint();
    this.render();
  }

  /** Shows the dialog and loads who has access. */
  open(): void {
    this.modal.open(this.username);
    void this.load();
  }

  close(): void {
    this.modal.close();
  }

  get isOpen(): boolean {
    return this.modal.isOpen;
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
}

/** Opens the share dialog for a conversation; returns it (to close it when the conversation closes). */
export function openShareDialog(options: ShareDialogOptions): ShareDialog {
  const dialog = new ShareDialog(options);
  dialog.open();
  return dialog;
}
