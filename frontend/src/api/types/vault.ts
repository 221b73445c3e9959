// The vault (/api/vault/): credentials the agent types by placeholder ({{github.password}}) and never reads. The
// server answers names only: a credential's fields and the origins it may be typed into, never a value.

import type { Id } from "./id";

export interface VaultCredential {
  id: Id;
  name: string;
  /** The fields it holds ("username", "password", "otp" for a TOTP secret, others by name). */
  fields: string[];
  origins: string[];
  created_at: string;
  updated_at: string;
}

/** A new credential, or an edit: each value given replaces the stored one; an empty one removes an optional field. */
export interface VaultCredentialInput {
  name?: string;
  origins?: string[];
  username?: string;
  password?: string;
  totp_secret?: string;
  secrets?: Record<string, string>;
}
