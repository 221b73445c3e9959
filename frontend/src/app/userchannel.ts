// The signed-in user's own socket (/ws/me/): a conversation shared with them appears in their list at once, one
// re-roled shows its new role, and one no longer theirs to see (the share revoked, the conversation deleted) leaves.

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
