import { afterEach, describe, expect, it } from "vitest";
import type { Tab, TabContext } from "./api/types";
import { applyServerEvent } from "./reducer";
import {
  contextEntries,
  contextNote,
  forgetSharedTabs,
  loadSharedTabs,
  readAgo,
  saveSharedTabs,
  shareState,
  sharedStorageKey,
  tabIdsForSend,
  toggleShared,
  unknownTabIds,
  type KeyValueStorage,
} from "./sharing";
import { emptyConversationView } from "./state";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const ago = (seconds: number): string => new Date(NOW - seconds * 1000).toISOString();

function context(tabId: string, extra: Partial<TabContext> = {}): TabContext {
  return {
    tab_id: tabId,
    title: `Page ${tabId}`,
    url: `https://example.com/${tabId}`,
    method: "readability",
    length: 1200,
    truncated: false,
    reason: "",
    extracted_at: ago(120),
    ...extra,
  };
}

function tab(id: string, extra: Partial<Tab> = {}): Tab {
  return { id, title: `Page ${id}`, url: `https://example.com/${id}`, favicon: "", active: false, context: null, ...extra };
}

class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, value);
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}

afterEach(() => forgetSharedTabs());

describe("share toggles → tab_ids", () => {
  it("turns one tab on or off, never listing it twice", () => {
    expect(toggleShared([], "t1", true)).toEqual(["t1"]);
    expect(toggleShared(["t1"], "t1", true)).toEqual(["t1"]);
    expect(toggleShared(["t1", "t2"], "t1", false)).toEqual(["t2"]);
    expect(toggleShared([], "t1", false)).toEqual([]);
  });

  it("sends exactly the toggled tabs that are open and read, in the tab bar's order; none is []", () => {
    const tabs = [tab("t1", { context: context("t1") }), tab("t2", { context: context("t2") }), tab("t3")];
    expect(tabIdsForSend(["t2", "t1"], tabs)).toEqual(["t1", "t2"]);
    // Toggled off: left out of this send (it stays in the context).
    expect(tabIdsForSend(["t2"], tabs)).toEqual(["t2"]);
    expect(tabIdsForSend([], tabs)).toEqual([]);
    // Still being read (no content yet) or closed: the server would refuse the id.
    expect(tabIdsForSend(["t3", "t9"], tabs)).toEqual([]);
  });

  it("says where each toggle stands", () => {
    const read = tab("t1", { context: context("t1") });
    expect(shareState(read, [], {})).toBe("off");
    expect(shareState(read, ["t1"], {})).toBe("shared");
    expect(shareState(tab("t2"), ["t2"], { t2: NOW })).toBe("reading");
    expect(shareState(read, ["t1"], { t1: NOW })).toBe("reading");
    expect(shareState(tab("t2"), ["t2"], {})).toBe("unread");
  });

  it("lists the tabs in the context, shared or not, and those being read", () => {
    const tabs = [tab("t1", { context: context("t1") }), tab("t2"), tab("t3", { context: context("t3") }), tab("t4")];
    const entries = contextEntries(tabs, ["t1", "t4"], { t2: NOW });
    expect(entries.map((e) => [e.tab.id, e.shared, e.reading, !!e.context])).toEqual([
      ["t1", true, false, true],
      ["t2", false, true, false],
      ["t3", false, false, true],
      ["t4", true, false, false],
    ]);
  });

  it("finds the ids a 400 names as unknown", () => {
    expect(
      unknownTabIds("Unknown tab ids for this conversation: t7, t9. Add a tab to the context before sharing it."),
    ).toEqual(["t7", "t9"]);
    expect(unknownTabIds("The message is empty.")).toBeNull();
  });
});

describe("what the context bar says", () => {
  it("says when a tab was read", () => {
    expect(readAgo(ago(10), NOW)).toBe("read just now");
    expect(readAgo(ago(120), NOW)).toBe("read 2 min ago");
    expect(readAgo(ago(3 * 3600), NOW)).toBe("read 3 h ago");
    expect(readAgo(ago(30 * 3600), NOW)).toBe("read yesterday");
    // A server clock a little ahead still reads as just now.
    expect(readAgo(new Date(NOW + 5000).toISOString(), NOW)).toBe("read just now");
    expect(readAgo(null, NOW)).toBe("");
    expect(readAgo("not a time", NOW)).toBe("");
  });

  it("notes a page that was cut or could not be read", () => {
    expect(contextNote(context("t1"))).toBeNull();
    expect(contextNote(context("t1", { truncated: true, length: 52_310 }))).toEqual({
      kind: "truncated",
      text: "Long page: the agent gets the first part of its 52,310 characters.",
    });
    expect(
      contextNote(context("t1", { method: "restricted", length: 0, reason: "Browser pages (chrome://) cannot be read." })),
    ).toEqual({ kind: "restricted", text: "Browser pages (chrome://) cannot be read." });
    expect(contextNote(context("t1", { method: "empty", length: 0 }))?.kind).toBe("restricted");
    expect(contextNote(null)).toBeNull();
  });
});

describe("remembering the shared set", () => {
  it("keeps it per conversation in sessionStorage, so a reload finds it", () => {
    const storage = new MemoryStorage();
    saveSharedTabs(7, ["t1", "t2"], storage);
    expect(storage.getItem(sharedStorageKey(7))).toBe('["t1","t2"]');
    forgetSharedTabs(); // the page reloads: memory is gone, sessionStorage is not
    expect(loadSharedTabs(7, storage)).toEqual(["t1", "t2"]);
    expect(loadSharedTabs(8, storage)).toEqual([]);
    saveSharedTabs(7, [], storage);
    expect(storage.getItem(sharedStorageKey(7))).toBeNull();
  });

  it("keeps it in memory when storage is missing, and ignores what it cannot read", () => {
    saveSharedTabs(3, ["t5"], null);
    expect(loadSharedTabs(3, null)).toEqual(["t5"]);
    const storage = new MemoryStorage();
    storage.setItem(sharedStorageKey(4), "{oops");
    expect(loadSharedTabs(4, storage)).toEqual([]);
    storage.setItem(sharedStorageKey(5), '["t1", 2, "t1"]');
    expect(loadSharedTabs(5, storage)).toEqual(["t1"]);
  });
});

describe("tab events", () => {
  it("puts what was read on the tab and stops its spinner", () => {
    const view = { ...emptyConversationView(1), tabs: [tab("t1"), tab("t2")], readingTabs: { t1: NOW }, sharedTabIds: ["t1"] };
    const next = applyServerEvent(view, { type: "tab.content", content: context("t1") });
    expect(next.tabs[0]!.context?.title).toBe("Page t1");
    expect(next.tabs[1]).toBe(view.tabs[1]);
    expect(next.readingTabs).toEqual({});
    expect(next.sharedTabIds).toEqual(["t1"]);
  });

  it("takes a tab out of the context and out of the shared set", () => {
    const view = {
      ...emptyConversationView(1),
      tabs: [tab("t1", { context: context("t1") }), tab("t2", { context: context("t2") })],
      sharedTabIds: ["t1", "t2"],
    };
    const next = applyServerEvent(view, { type: "tab.content.removed", tab_id: "t1" });
    expect(next.tabs[0]!.context).toBeNull();
    expect(next.sharedTabIds).toEqual(["t2"]);
    expect(tabIdsForSend(next.sharedTabIds, next.tabs)).toEqual(["t2"]);
  });

  it("takes the active tab's tools from tools.updated", () => {
    const tool = {
      name: "searchFlights",
      title: "Search flights",
      description: "",
      source: "page" as const,
      skill: null,
      input_schema: {},
      annotations: null,
      shadowed: false,
    };
    const next = applyServerEvent(emptyConversationView(1), {
      type: "tools.updated",
      tab: "t1",
      tools: [tool],
      skills: [{ name: "demo-shop", version: "1.0.0", status: "failed", error: "missing #cart" }],
    });
    expect(next.tools).toEqual({
      status: "ready",
      tab: "t1",
      tools: [tool],
      skills: [{ name: "demo-shop", version: "1.0.0", status: "failed", error: "missing #cart" }],
      error: null,
    });
  });
});
