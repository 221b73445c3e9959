import { describe, expect, it } from "vitest";
import {
  CLOSE_FORBIDDEN,
  ConversationSocket,
  backoffDelay,
  conversationSocketUrl,
  parseServerEvent,
  type SocketStatus,
  type WebSocketLike,
} from "./socket";

class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: WebSocketLike["onopen"] = null;
  onclose: WebSocketLike["onclose"] = null;
  onmessage: WebSocketLike["onmessage"] = null;
  onerror: WebSocketLike["onerror"] = null;
  closedWith: number | null = null;

  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(data);
  }
  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  // Test helpers: what the server does.
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  receive(data: unknown): void {
    this.onmessage?.({ data: typeof data === "string" ? data : JSON.stringify(data) } as MessageEvent);
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const socket = new ConversationSocket("ws://test/ws/conversations/5/", {
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    backoff: { baseMs: 100, maxMs: 1000, jitter: 0 },
    pingIntervalMs: 25_000,
    setTimeout: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimeout: (t) => ((t as { cleared: boolean }).cleared = true),
  });
  const statuses: [SocketStatus, boolean][] = [];
  socket.onStatus((status, { reconnected }) => statuses.push([status, reconnected]));
  const pendingRetry = () => timers.filter((t) => !t.cleared && t.ms !== 25_000);
  const fireRetry = () => {
    const t = pendingRetry().at(-1)!;
    t.cleared = true;
    t.fn();
  };
  return { socket, sockets, timers, statuses, pendingRetry, fireRetry };
}

describe("backoffDelay", () => {
  it("doubles from the base up to the cap, minus at most the jitter share", () => {
    const options = { baseMs: 500, maxMs: 15_000, jitter: 0.3 };
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, options, () => 0))).toEqual([500, 1000, 2000, 4000, 15_000]);
    expect(backoffDelay(1, options, () => 1)).toBe(700);
  });
});

describe("parseServerEvent", () => {
  it("accepts JSON objects with a type and drops everything else", () => {
    expect(parseServerEvent('{"type":"assistant.delta","run":3,"delta":"hi"}')).toEqual({
      type: "assistant.delta",
      run: 3,
      delta: "hi",
    });
    expect(parseServerEvent("not json")).toBeNull();
    expect(parseServerEvent('{"no":"type"}')).toBeNull();
    expect(parseServerEvent("[1,2]")).toBeNull();
  });
});

describe("conversationSocketUrl", () => {
  it("uses wss behind https and the page's host", () => {
    expect(conversationSocketUrl(12, { protocol: "https:", host: "hive.example" })).toBe(
      "wss://hive.example/ws/conversations/12/",
    );
    expect(conversationSocketUrl(12, { protocol: "http:", host: "localhost:8000" })).toBe(
      "ws://localhost:8000/ws/conversations/12/",
    );
  });
});

describe("ConversationSocket", () => {
  it("dispatches each event to the handlers of its type only", () => {
    const { socket, sockets } = harness();
    const deltas: string[] = [];
    const runs: number[] = [];
    socket.on("assistant.delta", (e) => deltas.push(e.delta));
    const off = socket.on("run.updated", (e) => runs.push(e.run.id));
    socket.connect();
    sockets[0]!.open();
    sockets[0]!.receive({ type: "assistant.delta", run: 1, delta: "Hel" });
    sockets[0]!.receive({ type: "run.updated", run: { id: 4 } });
    off();
    sockets[0]!.receive({ type: "run.updated", run: { id: 5 } });
    sockets[0]!.receive({ type: "assistant.delta", run: 1, delta: "lo" });
    sockets[0]!.receive("garbage");
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(runs).toEqual([4]);
  });

  it("reconnects with growing delays and says when state must be re-fetched", () => {
    const { socket, sockets, statuses, pendingRetry, fireRetry } = harness();
    socket.connect();
    sockets[0]!.open();
    expect(statuses.at(-1)).toEqual(["open", false]);

    sockets[0]!.drop();
    expect(statuses.at(-1)?.[0]).toBe("reconnecting");
    expect(pendingRetry().map((t) => t.ms)).toEqual([100]);
    fireRetry();
    sockets[1]!.drop(); // The server is still down.
    expect(pendingRetry().map((t) => t.ms)).toEqual([200]);
    fireRetry();
    sockets[2]!.open();
    expect(statuses.at(-1)).toEqual(["open", true]);

    // A successful connection resets the backoff.
    sockets[2]!.drop();
    expect(pendingRetry().map((t) => t.ms)).toEqual([100]);
  });

  it("stops for good when the server refuses access", () => {
    const { socket, sockets, statuses, pendingRetry } = harness();
    socket.connect();
    sockets[0]!.drop(CLOSE_FORBIDDEN);
    expect(statuses.at(-1)?.[0]).toBe("denied");
    expect(pendingRetry()).toEqual([]);
  });

  it("sends commands only while open and never queues them", () => {
    const { socket, sockets } = harness();
    socket.connect();
    expect(socket.send({ type: "ping" })).toBe(false);
    sockets[0]!.open();
    expect(socket.send({ type: "input", kind: "click", x: 0.5, y: 0.25, button: "left" })).toBe(true);
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ type: "input", kind: "click", x: 0.5, y: 0.25, button: "left" });
  });

  it("does not reconnect after close()", () => {
    const { socket, sockets, pendingRetry } = harness();
    socket.connect();
    sockets[0]!.open();
    socket.close();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(pendingRetry()).toEqual([]);
    expect(socket.status).toBe("closed");
  });
});
