// The reader's place in the open conversation, as the chat shows it: who is watching (a shared conversation),
// that the access was removed, and why a viewer has no composer.

import { permissionsFor, type Permissions, type PresenceEntry } from "../../access";
import type { Role } from "../../api/types";
import { h, icon, ICONS, KeyedList, setText } from "../../dom";
import type { ConversationView } from "../../state";
import { createPresenceItem } from "./presence";

/** The reader's place in the open conversation (App computes it from the session's view). */
export interface ChatAccess {
  role: Role | null;
  permissions: Permissions;
  /** The owner's username, for "shared by ada". */
  owner: string | null;
  presence: PresenceEntry[];
  showPresence: boolean;
  revoked: boolean;
}

/** The home page and one's own conversations: everything allowed, nobody else around. */
export const OWNER_ACCESS: ChatAccess = {
  role: "owner",
  permissions: permissionsFor("owner"),
  owner: null,
  presence: [],
  showPresence: false,
  revoked: false,
};

const REVOKED_TEXT = "Your access to this conversation was removed";

export class AccessBanners {
  /** Who is watching now, under the header. */
  readonly presenceBar: HTMLElement;
  /** The access was removed: said in place of the conversation. */
  readonly revokedEl: HTMLElement;
  /** Over the composer's place: why a viewer cannot send. */
  readonly readOnlyNote = h("div", { class: "readonly-note", "data-testid": "readonly-note", hidden: true });
  private readonly presenceList: KeyedList<PresenceEntry>;

  constructor() {
    this.presenceList = new KeyedList(
      h("ul", { class: "presence-list", "data-testid": "presence-list", "aria-label": "Watching now" }),
      (entry) => entry.username,
      createPresenceItem,
    );
    this.presenceBar = h(
      "div",
      { class: "presence-bar", hidden: true },
      h("span", { class: "presence-label" }, icon(ICONS.eye, 13), "Watching now"),
      this.presenceList.container,
    );
    this.revokedEl = h(
      "div",
      { class: "access-revoked", "data-testid": "access-revoked", role: "alert", hidden: true },
      icon(ICONS.lock, 18),
      h(
        "div",
        null,
        h("strong", null, REVOKED_TEXT),
        h("p", null, "The owner stopped sharing it with you, or your link expired. Ask them to share it again."),
        h("a", { class: "btn btn-secondary btn-sm", href: "/", "data-link": true }, "Back to your conversations"),
      ),
    );
  }

  /** The people watching changed (or whether they are worth showing). */
  setPresence(access: ChatAccess, previous: ChatAccess): void {
    if (previous.presence !== access.presence || previous.showPresence !== access.showPresence) {
      this.presenceList.update(access.showPresence && !access.revoked ? access.presence : []);
    }
  }

  clearPresence(): void {
    this.presenceList.clear();
  }

  render(view: ConversationView | null, access: ChatAccess): void {
    const { role, revoked, owner } = access;
    const open = !!view && !view.loadError;
    this.presenceBar.hidden = !open || revoked || !access.showPresence || access.presence.length === 0;
    this.revokedEl.hidden = !revoked;

    // A watcher is told why there is no composer (a reader whose role is not known yet is not: it comes soon).
    const watching = open && !revoked && role === "viewer";
    this.readOnlyNote.hidden = !watching;
    if (watching) {
      setText(
        this.readOnlyNote,
        `You are watching${owner ? ` ${owner}'s conversation` : ""} as a viewer: ask ${owner ?? "the owner"} to make you a controller to send messages or take over the browser.`,
      );
    }
  }
}
