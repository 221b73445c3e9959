// The session's side of shared tabs and tools: what it asks the API for and what the view then says.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "./api/client";
import { ApiError } from "./api/errors";
import type { WebSocketLike } from "./api/socket";
import type { SendMessageBody, ServerEvent, Tab, TabContext } from "./api/types";
import { ConversationSession, NoticeError } from "./session";
import { forgetSharedTabs, loadSharedTabs } from "./sharing";

const context = (tabId: string): TabContext => ({
  tab_id: tabId,
  title: `Page ${tabId}`,
  url: `https://example.com/${tabId}`,
  method: "readability",
  length: 900,
  truncated: false,
  reason: "",
  extracted_at: new Date().toISOString(),
});
const tab = (id: string, extra: Partial<Tab> = {}): Tab => ({
  id,
  title: `Page ${id}`,
  url: `https://example.com/${id}`,
  favicon: "",
  active: id === "t1",
  context: null,
  ...extra,
});

function fakeApi(tabs: Tab[]) {
  const sent: SendMessageBody[] = [];
  const reads: string[] = [];
  const api = {
    getConversation: async () => ({ id: 1, title: "", created_at: "", updated_at: "", last_run_status: null }),
    listMessages: async () => [],
    listRuns: async () => [],
    listTabs: async () => tabs,
    listFiles: async () => [],
    getTools: async () => {
      throw new ApiError(404, { detail: "Not found." }, "404");
    },
    listConversationSkills: async () => [],
    readTab: async (_id: number, tabId: string) => void reads.push(tabId),
    sendMessage: vi.fn(async (_id: number, body: SendMessageBody) => {
      sent.push(body);
      return {
        message: { id: sent.length, conversation: 1, role: "user", content: body.content, run: 5, created_at: "" },
        run: { id: 5, conversation: 1, status: "queued", error: "", prompt_tokens: 0, completion_tokens: 0, created_at: "", started_at: null, finished_at: null },
      };
    }),
  };
  return { api: api as unknown as ApiClient, raw: api, sent, reads };
}

function openSession(api: ApiClient) {
  let socket: WebSocketLike | null = null;
  const session = new ConversationSession(
    1,
    api,
    { onFrame: () => undefined, onRun: () => undefined, onConversation: () => undefined, onSignedOut: () => undefined },
    {
      createSocket: () => {
        socket = { readyState: 1, onopen: null, onclose: null, onmessage: null, onerror: null, send: () => undefined, close: () => undefined };
        return socket;
      },
      pingIntervalMs: 1e9,
    },
  );
  const emit = (event: ServerEvent): void => void socket?.onmessage?.({ data: JSON.stringify(event) } as MessageEvent);
  return { session, emit };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => vi.stubGlobal("location", { protocol: "http:", host: "hive.test" }));
afterEach(() => {
  vi.unstubAllGlobals();
  forgetSharedTabs();
});

describe("sharing a tab", () => {
  it("reads a tab not yet in the context, shows it reading until tab.content, then sends it", async () => {
    const { api, sent, reads } = fakeApi([tab("t1"), tab("t2")]);
    const { session, emit } = openSession(api);
    session.start();
    await settle();

    session.reads.share("t1", true);
    await settle();
    expect(reads).toEqual(["t1"]);
    expect(Object.keys(session.store.get().readingTabs)).toEqual(["t1"]);
    // Not read yet: not sent (the server would refuse the id).
    expect(session.tabIdsForSend()).toEqual([]);

    emit({ type: "tab.content", content: context("t1") });
    expect(session.store.get().readingTabs).toEqual({});
    await session.send("Summarise it", session.tabIdsForSend());
    expect(sent.at(-1)).toEqual({ content: "Summarise it", tab_ids: ["t1"] });

    // Off: the next send shares nothing (per-send override), and the tab stays in the context.
    session.reads.share("t1", false);
    await session.send("And now?", session.tabIdsForSend());
    expect(sent.at(-1)).toEqual({ content: "And now?", tab_ids: [] });
    expect(session.store.get().tabs[0]!.context?.tab_id).toBe("t1");
    // On again: already read, so no second read.
    session.reads.share("t1", true);
    expect(reads).toEqual(["t1"]);
    expect(loadSharedTabs(1)).toEqual(["t1"]);
    session.dispose();
  });

  it("puts a 400 about unknown tab ids in the notice and stops sharing those tabs", async () => {
    const { api, raw } = fakeApi([tab("t1", { context: context("t1") })]);
    raw.sendMessage.mockRejectedValueOnce(
      new ApiError(400, { detail: "Unknown tab ids for this conversation: t1. Add a tab to the context before sharing it." }, "400"),
    );
    const { session } = openSession(api);
    session.start();
    await settle();
    session.reads.share("t1", true);
    await expect(session.send("Hi", session.tabIdsForSend())).rejects.toBeInstanceOf(NoticeError);
    expect(session.store.get().notice).toMatch(/Unknown tab ids for this conversation: t1/);
    expect(session.store.get().sharedTabIds).toEqual([]);
    session.dispose();
  });

  it("reads a 404 from the tools endpoint as no tools on this page", async () => {
    const { api } = fakeApi([]);
    const { session } = openSession(api);
    session.start();
    await settle();
    expect(session.store.get().tools).toMatchObject({ status: "unavailable", tools: [], error: null });
    session.dispose();
  });
});
