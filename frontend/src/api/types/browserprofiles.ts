// Browser profiles (/api/profiles/): a saved sign-in (cookies, local storage, IndexedDB) a conversation, a workflow
// run or a schedule starts its browser from. Only names and counts are ever listed; the owner's export is the state.

import type { Id } from "./id";

export type ProfileAccess = "owner" | "controller" | "viewer";
export type ProfileMode = "read-write" | "read-only";

export interface ProfileOrigin {
  origin: string;
  cookies: number;
  local_storage: number;
  indexed_db: number;
}

export interface BrowserProfile {
  id: Id;
  name: string;
  owner: string;
  access: ProfileAccess;
  origins: ProfileOrigin[];
  size: number;
  saved_at: string | null;
  last_used_at: string | null;
  /** The session writing it now, if any. */
  in_use: { username: string; conversation: Id } | null;
  created_at: string;
  updated_at: string;
}

/** An import: a storage-state JSON or a Netscape cookies.txt, as text. */
export interface BrowserProfileImport {
  name: string;
  content: string;
  replace?: boolean;
}

export interface ConversationProfile {
  profile: { id: Id; name: string; owner: string } | null;
  mode: ProfileMode | null;
  chosen_by: string | null;
  writing: boolean;
}

/** Where a workflow run or schedule starts its browser: a profile (and whether its changes are saved back). */
export interface ProfileStart {
  profile?: Id;
  profile_mode?: ProfileMode;
}
