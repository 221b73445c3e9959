// Sharing: shares by username and expiring links, who is watching, who holds the browser.

import type { Id } from "./id";

/** Access to a conversation: its owner, a controller (may act), a viewer (watches). */
export type Role = "owner" | "controller" | "viewer";
/** The role a share grants. */
export type ShareRole = "viewer" | "controller";

/** A teammate's access (`kind: "user"`) or an expiring link anyone signed in may open (`kind: "link"`). */
export interface Share {
  id: Id;
  conversation: Id;
  kind: "user" | "link";
  /** The teammate's username (user shares). */
  user: string | null;
  role: ShareRole;
  /** The link's token (links); its page is `/share/<token>`. */
  token: string | null;
  /** The link this teammate joined through. */
  via_link: Id | null;
  expires_at: string | null;
  expired: boolean;
  created_by: string;
  created_at: string;
}

export interface ShareInput {
  username: string;
  role?: ShareRole;
}

export interface ShareLinkInput {
  role?: ShareRole;
  /** 1–43200 (30 days); the server's default is a day. */
  expires_in_minutes?: number;
}

/** GET /api/share-links/<token>/: what a link opens. */
export interface ShareLinkPreview {
  conversation: Id;
  title: string;
  owner: string;
  role: ShareRole;
  expires_at: string;
}

/** Who holds the live browser's controls (a username), or nobody (the agent has it). */
export interface ControlState {
  holder: string | null;
}

/** One person watching the conversation (several tabs count once). */
export interface PresenceViewer {
  username: string;
  role: Role;
  since: string;
}
