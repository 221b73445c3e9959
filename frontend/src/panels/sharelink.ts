// The page a share link opens (/share/<token>): whose conversation it is, the role it grants and until when,
// and "Open", which accepts the link (the teammate gets a share of their own) and opens the conversation.
// A link that does not exist, was revoked or expired says so.

import { ROLE_DESCRIPTION, ROLE_LABEL } from "../access";
import type { ApiClient } from "../api/client";
import { ApiError } from "../api/errors";
import type { Conversation, ShareLinkPreview, User } from "../api/types";
import { h, icon, ICONS, replaceChildren } from "../dom";
import { brandMark } from "./brand";

export interface ShareLinkPageOptions {
  api: ApiClient;
  token: string;
  user: User;
  /** The link was accepted: open the conversation. */
  onOpen: (conversation: Conversation) => void;
}

/** What to say when a link cannot be used: 404 unknown, 410 revoked or expired (the server says which). */
export function shareLinkErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 404) return "This share link does not exist. Check that you copied the whole address.";
    if (err.status === 410) return err.detail ?? "This share link is no longer valid. Ask the owner for a new one.";
    if (err.status === 0) return err.message;
    return err.summary;
  }
  return err instanceof Error ? err.message : String(err);
}

function card(...children: (Node | null)[]): HTMLElement {
  return h(
    "div",
    { class: "share-page", "data-testid": "share-link-page" },
    h("div", { class: "share-page-card" }, h("div", { class: "share-page-brand" }, brandMark(36), h("span", null, "Hive")), ...children),
  );
}

function homeLink(text = "Go to your conversations"): HTMLElement {
  return h("a", { class: "btn btn-ghost", href: "/", "data-link": true }, text);
}

function renderError(root: HTMLElement, err: unknown): void {
  const status = err instanceof ApiError ? err.status : 0;
  replaceChildren(
    root,
    card(
      h("div", { class: "share-page-icon error" }, icon(ICONS.alert, 22)),
      h("h1", null, status === 410 ? "This link can't be used any more" : "Can't open this link"),
      h(
        "p",
        { class: "share-link-error", "data-testid": "share-link-error", "data-status": String(status), role: "alert" },
        shareLinkErrorText(err),
      ),
      h("div", { class: "share-page-actions" }, homeLink()),
    ),
  );
}

function expiresText(iso: string): string {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "";
  return `The link works until ${when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}.`;
}

function renderPreview(root: HTMLElement, preview: ShareLinkPreview, options: ShareLinkPageOptions): void {
  const own = preview.owner === options.user.username;
  const error = h("p", { class: "share-link-error", "data-testid": "share-link-error", role: "alert", hidden: true });
  const open = h(
    "button",
    { class: "btn btn-primary", type: "button", "data-testid": "share-accept" },
    icon(ICONS.forward, 15),
    h("span", null, "Open"),
  );
  open.addEventListener("click", () => void (async () => {
    open.disabled = true;
    error.hidden = true;
    try {
      options.onOpen(await options.api.acceptShareLink(options.token));
    } catch (err) {
      error.textContent = shareLinkErrorText(err);
      error.hidden = false;
      open.disabled = false;
    }
  })());
  replaceChildren(
    root,
    card(
      h("div", { class: "share-page-icon" }, icon(ICONS.users, 22)),
      h(
        "h1",
        { "data-testid": "share-link-heading" },
        own ? "This is your own conversation" : `${preview.owner} shared a conversation with you`,
      ),
      h("p", { class: "share-page-title", "data-testid": "share-link-title" }, preview.title.trim() || "New conversation"),
      own
        ? null
        : h(
            "p",
            { class: "share-page-role", "data-testid": "share-link-role", "data-role": preview.role },
            h("span", { class: `role-badge role-${preview.role}` }, ROLE_LABEL[preview.role]),
            h("span", null, `${ROLE_DESCRIPTION[preview.role]}.`),
          ),
      h("p", { class: "share-page-expiry" }, expiresText(preview.expires_at)),
      error,
      h("div", { class: "share-page-actions" }, open, homeLink("Not now")),
      h("p", { class: "share-page-user" }, `Signed in as ${options.user.username}`),
    ),
  );
  open.focus();
}

/** Shows the link's page: loading, then what it opens, or why it can't be used. */
export function renderShareLinkPage(root: HTMLElement, options: ShareLinkPageOptions): void {
  const loading = card(h("div", { class: "chat-loading" }, h("span", { class: "spinner" }), "Opening the share link…"));
  replaceChildren(root, loading);
  document.title = "Shared conversation · Hive";
  // Another page may have replaced this one meanwhile: then the answer is not shown.
  const stillHere = (): boolean => loading.isConnected;
  options.api.getShareLink(options.token).then(
    (preview) => stillHere() && renderPreview(root, preview, options),
    (err: unknown) => stillHere() && renderError(root, err),
  );
}
