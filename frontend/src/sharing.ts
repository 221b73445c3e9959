// Shared tabs: which of the browser's tabs go with the next message, remembered per conversation
// (in memory and in sessionStorage, so a reload keeps them), and what the tab bar says about each tab in the
// context. Pure: no DOM, unit-tested.

import type { Id, Tab, TabContext } from "./api/types";
import { relativeTime } from "./format";

/** How long a read may take before the spinner gives up (the worker's own limit is 90 s). */
export const READ_TIMEOUT_MS = 100_000;

/** The shared set after turning one tab's toggle on or off (a tab is never listed twice). */
export function toggleShared(shared: readonly string[], tabId: string, on: boolean): string[] {
  const rest = shared.filter((id) => id !== tabId);
  return on ? [...rest, tabId] : rest;
}

/**
 * The `tab_ids` of one send: exactly the tabs toggled on that are open and in the context, in the tab bar's
 * order (per-send override: each send says its whole set; none is `[]`). A tab still being read, or closed,
 * is not sent: the server would refuse an id it has no content for.
 */
export function tabIdsForSend(shared: readonly string[], tabs: readonly Tab[]): string[] {
  const on = new Set(shared);
  return tabs.filter((tab) => on.has(tab.id) && !!tab.context).map((tab) => tab.id);
}

/** Where a tab's share toggle stands: off, being read, shared (read), or on but with nothing read yet. */
export type ShareState = "off" | "reading" | "shared" | "unread";

export function shareState(
  tab: Pick<Tab, "id" | "context">,
  shared: readonly string[],
  reading: Readonly<Record<string, number>>,
): ShareState {
  if (!shared.includes(tab.id)) return "off";
  if (tab.id in reading) return "reading";
  return tab.context ? "shared" : "unread";
}

/**
 * One line of the context bar: a tab in the context (shared with the next send or not), being read, or
 * toggled on with nothing read yet (a read that failed: its refresh button reads it).
 */
export interface ContextEntry {
  tab: Tab;
  shared: boolean;
  reading: boolean;
  context: TabContext | null;
}

export function contextEntries(
  tabs: readonly Tab[],
  shared: readonly string[],
  reading: Readonly<Record<string, number>>,
): ContextEntry[] {
  return tabs
    .filter((tab) => !!tab.context || tab.id in reading || shared.includes(tab.id))
    .map((tab) => ({
      tab,
      shared: shared.includes(tab.id),
      reading: tab.id in reading,
      context: tab.context ?? null,
    }));
}

/** "read just now", "read 2 min ago", "read yesterday"; "" when the time is unknown. */
export function readAgo(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return "";
  const ago = relativeTime(iso, now);
  return ago ? `read ${ago}` : "";
}

/** What to tell the user about a read: the page had no readable text (and why), or its text was cut. */
export function contextNote(context: TabContext | null): { kind: "restricted" | "truncated"; text: string } | null {
  if (!context) return null;
  const noText = context.method === "restricted" || context.method === "empty";
  if (noText || (context.reason && context.length === 0)) {
    return { kind: "restricted", text: context.reason || "Nothing readable was found on this page." };
  }
  if (context.truncated) {
    const length = context.length > 0 ? ` of its ${context.length.toLocaleString("en-US")} characters` : "";
    return { kind: "truncated", text: `Long page: the agent gets the first part${length}.` };
  }
  if (context.reason) return { kind: "restricted", text: context.reason };
  return null;
}

/** The tab ids a 400 from sending names as unknown ("Unknown tab ids for this conversation: a, b. …"). */
export function unknownTabIds(message: string): string[] | null {
  const list = /unknown tab ids?[^:]*:\s*([^\n]*?)\.(?:\s|$)/i.exec(message)?.[1];
  if (list === undefined) return null;
  return list
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
}

// --- Remembering the shared set per conversation ---

/** The part of sessionStorage used here, so tests can pass a plain object. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function sharedStorageKey(conversationId: Id): string {
  return `hive.shared-tabs.${conversationId}`;
}

const remembered = new Map<Id, string[]>();

function defaultStorage(): KeyValueStorage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** The tabs shared in a conversation: from memory, else from sessionStorage (a reload), else none. */
export function loadSharedTabs(conversationId: Id, storage: KeyValueStorage | null = defaultStorage()): string[] {
  const inMemory = remembered.get(conversationId);
  if (inMemory) return inMemory;
  let raw: string | null;
  try {
    raw = storage?.getItem(sharedStorageKey(conversationId)) ?? null;
  } catch {
    raw = null;
  }
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? [...new Set(value.filter((id): id is string => typeof id === "string"))] : [];
  } catch {
    return [];
  }
}

export function saveSharedTabs(
  conversationId: Id,
  ids: readonly string[],
  storage: KeyValueStorage | null = defaultStorage(),
): void {
  remembered.set(conversationId, [...ids]);
  try {
    if (ids.length) storage?.setItem(sharedStorageKey(conversationId), JSON.stringify(ids));
    else storage?.removeItem(sharedStorageKey(conversationId));
  } catch {
    // Full or disabled storage: memory still has it for this page.
  }
}

/** Forgets what memory holds (tests; a conversation that was deleted). */
export function forgetSharedTabs(conversationId?: Id): void {
  if (conversationId === undefined) remembered.clear();
  else remembered.delete(conversationId);
}
