// What a browser profile is shown as: its origins in a line, when it was last used, who writes it now, and which
// profiles a picker offers (those the reader may start a browser from).

import type { BrowserProfile, ProfileOrigin } from "../../api/types";
import { relativeTime } from "../../format";

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? "" : "s"}`;
}

/** "127.0.0.1:8000 (2 cookies, 1 local item)": the host and what the profile keeps for it. */
export function originLine(origin: ProfileOrigin): string {
  const parts = [plural(origin.cookies, "cookie")];
  if (origin.local_storage) parts.push(plural(origin.local_storage, "local item"));
  if (origin.indexed_db) parts.push(plural(origin.indexed_db, "database"));
  return `${origin.origin.replace(/^[a-z]+:\/\//, "")} (${parts.join(", ")})`;
}

/** One line under the profile's name: its size in origins, its last use, and the session writing it, if any. */
export function profileSummary(profile: BrowserProfile, now = Date.now()): string {
  const origins = profile.origins.length ? plural(profile.origins.length, "site") : "no sites yet";
  const used = profile.last_used_at ? `used ${relativeTime(profile.last_used_at, now)}` : "never used";
  const owner = profile.access === "owner" ? "" : ` · ${profile.owner}'s`;
  const writer = profile.in_use ? ` · in use by ${profile.in_use.username} in conversation ${profile.in_use.conversation}` : "";
  return `${origins} · ${used}${owner}${writer}`;
}

/** The profiles a browser may start from: one's own and those shared as controller, own first, by name. */
export function startableProfiles(profiles: readonly BrowserProfile[]): BrowserProfile[] {
  return profiles
    .filter((p) => p.access !== "viewer")
    .sort((a, b) => Number(a.access !== "owner") - Number(b.access !== "owner") || a.name.localeCompare(b.name));
}

/** A picker's label for a profile: its name, with its owner's when it is someone else's. */
export function pickerLabel(profile: BrowserProfile): string {
  return profile.access === "owner" ? profile.name : `${profile.name} (${profile.owner})`;
}
