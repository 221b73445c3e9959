// Keeps the open conversation live from its websocket: every event goes through the reducer into the view, and
// the parts that pace themselves on events (the controls, the tools, the tab reads, the history) hear of theirs.
// After a reconnect whatever happened meanwhile is fetched; a 4403 after the socket was open means the access
// was revoked.

import type { ConversationSocket } from "../api/socket";
import type { Conversation, FrameEvent, Run } from "../api/types";
import { applyServerEvent } from "../reducer";
import type { ConversationView, Store } from "../state";
import type { BrowserControl } from "./control";
import type { History } from "./history";
import type { TabReads } from "./tabreads";
import type { PageTools } from "./tools";

export interface LiveParts {
  store: Store<ConversationView>;
  history: History;
  reads: TabReads;
  tools: PageTools;
  control: BrowserControl;
  hooks: {
    onFrame: (frame: FrameEvent) => void;
    onRun: (run: Run) => void;
    onConversation: (conversation: Conversation) => void;
    onRevoked?: () => void;
  };
}

/** Event types whose only effect is on the view (some have more below). */
const VIEW_EVENTS = [
  "hello",
  "presence",
  "control.updated",
  "access.updated",
  "conversation.updated",
  "message.created",
  "assistant.delta",
  "step.created",
  "step.updated",
  "tabs.updated",
  "tab.content",
  "tab.content.removed",
  "tools.updated",
  "confirmation.requested",
  "confirmation.updated",
  "plan.updated",
  "file.created",
  "session.notice",
  "error",
] as const;

export function followSocket(socket: ConversationSocket, parts: LiveParts): void {
  const { store, history, reads, tools, control, hooks } = parts;
  socket.on("frame", (frame) => hooks.onFrame(frame));
  for (const type of VIEW_EVENTS) {
    socket.on(type, (event) => store.update((view) => applyServerEvent(view, event)));
  }
  socket.on("hello", (event) => {
    control.noteEvent();
    hooks.onConversation(store.get().conversation ?? event.conversation);
  });
  socket.on("control.updated", () => control.noteEvent());
  // The sidebar shows the new role too.
  socket.on("access.updated", () => {
    const conversation = store.get().conversation;
    if (conversation) hooks.onConversation(conversation);
  });
  socket.on("conversation.updated", (event) => hooks.onConversation(event.conversation));
  socket.on("tabs.updated", (event) => {
    history.noteTabsEvent();
    tools.tabsChanged(event.tabs);
  });
  socket.on("tab.content", (event) => reads.settled(event.content.tab_id));
  socket.on("tab.content.removed", (event) => reads.settled(event.tab_id));
  socket.on("tools.updated", () => tools.noteEvent());
  socket.on("run.updated", (event) => {
    store.update((view) => applyServerEvent(view, event));
    hooks.onRun(event.run);
  });
  /** The socket was open once: a 4403 after that means the access was revoked, not that there never was any. */
  let wasOpen = false;
  socket.onStatus((status, { reconnected }) => {
    if (status === "open") wasOpen = true;
    if (status === "denied" && wasOpen) {
      // Revoked (or expired) while watching: the socket does not come back; nothing here may be used.
      store.update((view) => ({
        ...view,
        connection: status,
        revoked: true,
        presence: [],
        control: { holder: null, pending: null },
      }));
      hooks.onRevoked?.();
      return;
    }
    store.update((view) => ({ ...view, connection: status }));
    // Whatever happened while we were away is in the database: fetch it.
    if (status === "open" && reconnected) {
      void history.load();
      void tools.load();
    }
  });
}
