// The session's side of a shared conversation: taking and handing back the browser's controls, input only
// from the holder, a role change, and a revoke that closes the socket for good.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "./api/client";
import { ApiError } from "./api/errors";
import { CLOSE_FORBIDDEN, type WebSocketLike } from "./api/socket";
import type { Conversation, ServerEvent } from "./api/types";
import { ConversationSession } from "./session";

const conversation = (role: Conversation["role"]): Conversation => ({
  id: 1,
  title: "Trip",
  created_at: "",
  updated_at: "",
  last_run_status: null,
  owner: "ada",
  role,
  shared: role !== "owner",
});

function fakeApi(role: Conversation["role"] = "controller") {
  const api = {
    getConversation: vi.fn(async () => conversation(role)),
    listMessages: async () => [],
    listRuns: async () => [],
    listTabs: async () => [],
    listFiles: async () => [],
    getTools: async () => ({ tab: null, tools: [], skills: [] }),
    listConversationSkills: async () => [],
    setControl: vi.fn(async (_id: number, action: "take" | "release") => ({ holder: action === "take" ? "bob" : null })),
    getControl: vi.fn(async () => ({ holder: "cy" })),
  };
  return { api: api as unknown as ApiClient, raw: api };
}

function openSession(api: ApiClient, me = "bob") {
  const sockets: (WebSocketLike & { sent: string[] })[] = [];
  const hooks = {
    onFrame: () => undefined,
    onRun: () => undefined,
    onConversation: vi.fn(),
    onSignedOut: () => undefined,
    onRevoked: vi.fn(),
    me,
  };
  const session = new ConversationSession(1, api, hooks, {
    createSocket: () => {
      const socket = {
        readyState: 1,
        onopen: null,
        onclose: null,
        onmessage: null,
        onerror: null,
        sent: [] as string[],
        send(data: string) {
          this.sent.push(data);
        },
        close: () => undefined,
      } as WebSocketLike & { sent: string[] };
      sockets.push(socket);
      return socket;
    },
    pingIntervalMs: 1e9,
    backoff: { baseMs: 1, maxMs: 1, jitter: 0 },
  });
  const socket = () => sockets.at(-1)!;
  const emit = (event: ServerEvent): void => void socket().onmessage?.({ data: JSON.stringify(event) } as MessageEvent);
  const open = (): void => void socket().onopen?.({} as Event);
  const closeWith = (code: number): void => void socket().onclose?.({ code } as CloseEvent);
  const inputs = (): unknown[] => sockets.flatMap((s) => s.sent.map((d) => JSON.parse(d) as { type: string })).filter((m) => m.type === "input");
  return { session, hooks, sockets, emit, open, closeWith, inputs };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
const click = { kind: "click" as const, x: 0.5, y: 0.5 };

beforeEach(() => vi.stubGlobal("location", { protocol: "http:", host: "hive.test" }));
afterEach(() => vi.unstubAllGlobals());

describe("the browser's controls", () => {
  it("sends input only while the signed-in user holds the controls", async () => {
    const { api, raw } = fakeApi("controller");
    const { session, emit, open, inputs } = openSession(api);
    session.start();
    open();
    emit({ type: "hello", conversation: conversation("controller"), role: "controller", control: { holder: null }, live: true });
    await settle();

    expect(session.sendInput(click)).toBe(false); // nobody holds them: take control first
    const taking = session.control.set("take");
    expect(session.store.get().control.pending).toBe("take");
    await taking;
    expect(raw.setControl).toHaveBeenCalledWith(1, "take");
    expect(session.store.get().control).toEqual({ holder: "bob", pending: null });
    expect(session.sendInput(click)).toBe(true);

    // Someone else has them now (the owner took over): input stops at once.
    emit({ type: "control.updated", holder: "ada" });
    expect(session.sendInput(click)).toBe(false);
    expect(inputs()).toHaveLength(1);
    session.dispose();
  });

  it("keeps a fresher control.updated over a slower answer", async () => {
    const { api, raw } = fakeApi("controller");
    let answer: (value: { holder: string | null }) => void = () => undefined;
    raw.setControl.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { session, emit, open } = openSession(api);
    session.start();
    open();
    const taking = session.control.set("take");
    emit({ type: "control.updated", holder: "ada" });
    answer({ holder: "bob" });
    await taking;
    expect(session.store.get().control).toEqual({ holder: "ada", pending: null });
    session.dispose();
  });

  it("puts a refusal in the notice and asks who holds the controls", async () => {
    const { api, raw } = fakeApi("controller");
    raw.setControl.mockRejectedValueOnce(
      new ApiError(409, { detail: "cy has control of the browser; ask them to hand it back." }, "409"),
    );
    const { session, open } = openSession(api);
    session.start();
    open();
    await session.control.set("take");
    expect(session.store.get().notice).toMatch(/cy has control/i);
    expect(raw.getControl).toHaveBeenCalled();
    expect(session.store.get().control).toEqual({ holder: "cy", pending: null });
    session.dispose();
  });

  it("stops a demoted holder's input", async () => {
    const { api } = fakeApi("controller");
    const { session, emit, open } = openSession(api);
    session.start();
    open();
    emit({ type: "hello", conversation: conversation("controller"), role: "controller", control: { holder: "bob" }, live: true });
    expect(session.sendInput(click)).toBe(true);
    emit({ type: "access.updated", role: "viewer" });
    expect(session.store.get().role).toBe("viewer");
    expect(session.sendInput(click)).toBe(false);
    session.dispose();
  });
});

describe("access", () => {
  it("tells the sidebar a new role", async () => {
    const { api } = fakeApi("viewer");
    const { session, hooks, emit, open } = openSession(api);
    session.start();
    open();
    emit({ type: "hello", conversation: conversation("viewer"), role: "viewer", control: { holder: null }, live: true });
    await settle();
    hooks.onConversation.mockClear();
    emit({ type: "access.updated", role: "controller" });
    expect(hooks.onConversation).toHaveBeenCalledWith(expect.objectContaining({ id: 1, role: "controller" }));
    session.dispose();
  });

  it("keeps the websocket's role over a slower REST answer", async () => {
    const { api } = fakeApi("viewer");
    const { session, emit, open } = openSession(api);
    session.start();
    open();
    emit({ type: "access.updated", role: "controller" });
    await settle();
    expect(session.store.get().conversation?.role).toBe("controller");
    session.dispose();
  });

  it("says the access was removed when an open socket closes with 4403, and does not reconnect", async () => {
    const { api } = fakeApi("viewer");
    const { session, hooks, sockets, emit, open, closeWith } = openSession(api);
    session.start();
    open();
    emit({ type: "hello", conversation: conversation("viewer"), role: "viewer", control: { holder: "ada" }, live: true });
    emit({ type: "presence", viewers: [{ username: "ada", role: "owner", since: "" }] });
    closeWith(CLOSE_FORBIDDEN);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const view = session.store.get();
    expect(view.revoked).toBe(true);
    expect(view.connection).toBe("denied");
    expect(view.presence).toEqual([]);
    expect(view.control.holder).toBeNull();
    expect(hooks.onRevoked).toHaveBeenCalledTimes(1);
    expect(sockets).toHaveLength(1);
    expect(session.sendInput(click)).toBe(false);
    session.dispose();
  });

  it("reads a 4403 before the socket ever opened as no access, not as a revoke", async () => {
    const { api } = fakeApi("viewer");
    const { session, hooks, closeWith } = openSession(api);
    session.start();
    closeWith(CLOSE_FORBIDDEN);
    expect(session.store.get().connection).toBe("denied");
    expect(session.store.get().revoked).toBe(false);
    expect(hooks.onRevoked).not.toHaveBeenCalled();
    session.dispose();
  });

  it("reconnects after any other close", async () => {
    const { api } = fakeApi("viewer");
    const { session, sockets, open, closeWith } = openSession(api);
    session.start();
    open();
    closeWith(1006);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sockets.length).toBe(2);
    expect(session.store.get().revoked).toBe(false);
    session.dispose();
  });
});
