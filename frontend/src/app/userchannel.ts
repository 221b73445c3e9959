// The signed-in user's own socket (/ws/me/): a conversation shared with them appears in their list at once, one
// re-roled shows its new role, one no longer theirs to see (the share revoked, the conversation deleted) leaves, and
// one whose agent asks for a person says so.

import { ConversationSocket, userSocketUrl, type SocketOptions } from "../api/socket";
import type { UserEvent } from "../api/types";
import { Disposables } from "../lifecycle";
import type { AppState, Store } from "../state";
import { upsertConversation } from "./lists";

export class UserChannel {
  private readonly disposables = new Disposables();

  /** `onReconnected`: the socket was away for a while (events may have been missed): read the list again. */
  constructor(store: Store<AppState>, onReconnected: () => void, options: SocketOptions = {}, url = userSocketUrl()) {
    const socket = new ConversationSocket<UserEvent>(url, options);
    this.disposables.add(socket.on("conversation.shared", (event) => upsertConversation(store, event.conversation)));
    this.disposables.add(
      socket.on("conversation.unshared", (event) =>
        store.update((s) => ({ ...s, conversations: s.conversations.filter((c) => c.id !== event.conversation) })),
      ),
    );
    // The agent asks for a person there: the list says "Waiting for you" on it, wherever the user is.
    this.disposables.add(
      socket.on("person.wanted", (event) =>
        store.update((s) => ({
          ...s,
          conversations: s.conversations.map((c) =>
            c.id === event.conversation ? { ...c, last_run_status: "waiting" as const } : c,
          ),
        })),
      ),
    );
    this.disposables.add(
      socket.onStatus((status, { reconnected }) => {
        if (status === "open" && reconnected) onReconnected();
      }),
    );
    this.disposables.add(() => socket.close());
    socket.connect();
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
