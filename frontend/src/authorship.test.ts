import { describe, expect, it } from "vitest";
import type { Conversation, Message, Run, UserEvent } from "./api/types";
import { ConversationSocket, type WebSocketLike } from "./api/socket";
import { saysHowItGoes } from "./app/lists";
import { UserChannel } from "./app/userchannel";
import { messageLabel } from "./panels/chat/timeline";
import { Store, initialAppState, type AppState } from "./state";
import { buildTimeline } from "./timeline";

const T = (s: number): string => new Date(Date.UTC(2025, 0, 1, 12, 0, s)).toISOString();

function message(id: number, at: number, author: string | null): Message {
  return { id, conversation: 1, role: "user", content: `m${id}`, run: null, created_at: T(at), author };
}

function conversation(id: number, extra: Partial<Conversation> = {}): Conversation {
  return { id, title: `c${id}`, created_at: T(0), updated_at: T(id), last_run_status: null, ...extra };
}

describe("who wrote each message", () => {
  it("names the author, and the owner for a message from before authors were kept", () => {
    const view = {
      messages: [message(1, 1, "bob"), message(2, 2, null)],
      runs: [],
      steps: {},
      streaming: {},
      conversation: conversation(1, { owner: "ada" }),
    };
    const authors = buildTimeline(view).map((item) => (item.kind === "message" ? item.author : undefined));
    expect(authors).toEqual(["bob", "ada"]);
    // The same messages read "You" for their author and the name for everyone else.
    expect(messageLabel("user", "bob", "bob")).toBe("You");
    expect(messageLabel("user", "bob", "ada")).toBe("bob");
    expect(messageLabel("assistant", null, "ada")).toBe("Hive agent");
  });

  it("offers the owner's links on the run blocks to the owner alone", () => {
    const run: Run = {
      id: 4, conversation: 1, status: "succeeded", error: "", prompt_tokens: 0, completion_tokens: 0,
      created_at: T(3), started_at: null, finished_at: null,
    };
    const view = { messages: [], runs: [run], steps: {}, streaming: {} };
    expect(buildTimeline(view, true)[0]).toMatchObject({ kind: "run", ownerReads: true });
    expect(buildTimeline(view)[0]).toMatchObject({ kind: "run", ownerReads: false });
  });
});

describe("a conversation's status", () => {
  it("follows the agent's turns and replays, not an action by hand", () => {
    expect(saysHowItGoes({ kind: "turn" })).toBe(true);
    expect(saysHowItGoes({ kind: "workflow" })).toBe(true);
    expect(saysHowItGoes({})).toBe(true);
    expect(saysHowItGoes({ kind: "action" })).toBe(false);
    expect(saysHowItGoes({ kind: "tool" })).toBe(false);
  });
});

class FakeSocket implements WebSocketLike {
  readyState = 0;
  onopen: WebSocketLike["onopen"] = null;
  onclose: WebSocketLike["onclose"] = null;
  onmessage: WebSocketLike["onmessage"] = null;
  onerror: WebSocketLike["onerror"] = null;
  closed = false;
  send(): void {
    return;
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  receive(event: UserEvent): void {
    this.onmessage?.({ data: JSON.stringify(event) } as MessageEvent);
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006 } as CloseEvent);
  }
}

describe("the user's own socket", () => {
  it("adds a conversation shared with the user, re-roles it, and takes it away when no longer shared", () => {
    const store = new Store<AppState>({ ...initialAppState, conversations: [conversation(1)] });
    const sockets: FakeSocket[] = [];
    const timers: (() => void)[] = [];
    let reread = 0;
    const channel = new UserChannel(
      store,
      () => (reread += 1),
      {
        createSocket: () => {
          const socket = new FakeSocket();
          sockets.push(socket);
          return socket;
        },
        setTimeout: (fn) => timers.push(fn),
        clearTimeout: () => undefined,
      },
      "ws://test/ws/me/",
    );
    sockets[0]!.open();
    const shared = conversation(7, { owner: "ada", role: "viewer", shared: true });
    sockets[0]!.receive({ type: "conversation.shared", conversation: shared });
    expect(store.get().conversations.map((c) => [c.id, c.role])).toEqual([
      [7, "viewer"],
      [1, undefined],
    ]);
    sockets[0]!.receive({ type: "conversation.shared", conversation: { ...shared, role: "controller" } });
    expect(store.get().conversations.find((c) => c.id === 7)?.role).toBe("controller");
    sockets[0]!.receive({ type: "conversation.unshared", conversation: 7 });
    expect(store.get().conversations.map((c) => c.id)).toEqual([1]);
    sockets[0]!.receive({ type: "person.wanted", conversation: 1, title: "Members", reason: "Solve the captcha" });
    expect(store.get().conversations.find((c) => c.id === 1)?.last_run_status).toBe("waiting");

    // After a drop, events may have been missed: the list is read again once the socket is back.
    sockets[0]!.drop();
    timers.pop()?.(); // the reconnect (the first timer was the ping's)
    sockets[1]!.open();
    expect(reread).toBe(1);
    channel.dispose();
    expect(sockets[1]!.closed).toBe(true);
  });

  it("is an ordinary socket of the dashboard's client", () => {
    expect(new ConversationSocket<UserEvent>("ws://test/ws/me/").url).toBe("ws://test/ws/me/");
  });
});
