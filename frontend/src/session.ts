// One open conversation: loads its history from the REST API, keeps it live from the websocket
// (re-fetching after every reconnect), and sends messages, aborts and live-view input; the tabs shared
// with the agent, and the active tab's WebMCP tools.

import type { ApiClient } from "./api/client";
import { ApiError } from "./api/errors";
import { errorText } from "./errors";
import { ConversationSocket, conversationSocketUrl, type SocketOptions } from "./api/socket";
import type {
  BrowserAction,
  Conversation,
  ConversationSettings,
  FrameEvent,
  Id,
  InputCommand,
  Run,
  SendMessageResult,
} from "./api/types";
import { mayInput, roleOf } from "./access";
import { applyConfirmation, applyServerEvent, mergeSnapshot, upsertMessage, upsertRun } from "./reducer";
import {
  loadSharedTabs,
  saveSharedTabs,
  tabIdsForSend,
  unknownTabIds,
} from "./sharing";
import { BrowserControl } from "./session/control";
import type { SessionContext } from "./session/context";
import { TabReads, settledReads } from "./session/tabreads";
import { PageTools } from "./session/tools";
import { Store, emptyConversationView, type ConversationView } from "./state";

/** An error already shown in the conversation's notice: whoever catches it need not show it again. */
export class NoticeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoticeError";
  }
}

/** Keys the file chips of uploads in progress (unique across conversations of this page). */
let uploadCounter = 0;

export interface SessionHooks {
  onFrame: (frame: FrameEvent) => void;
  /** A run of this conversation changed (to keep the sidebar's status and order right). */
  onRun: (run: Run) => void;
  onConversation: (conversation: Conversation) => void;
  /** The REST API answered 401/403: the session cookie is gone. */
  onSignedOut: () => void;
  /** The owner revoked the reader's access while the conversation was open (the socket closed with 4403). */
  onRevoked?: () => void;
  /** The signed-in user's username: live-view input is sent only while they hold the browser's controls. */
  me?: string | null;
}

export class ConversationSession {
  readonly store: Store<ConversationView>;
  private readonly socket: ConversationSocket;
  private disposed = false;
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  /** Counts tabs.updated events, so a slower REST answer never overwrites fresher tabs. */
  private tabEvents = 0;
  /** The tabs read into the context for the agent, and the share toggles. */
  readonly reads: TabReads;
  /** The active tab's WebMCP tools and this conversation's SKILLs. */
  readonly tools: PageTools;
  /** Who holds the live browser's controls; take them or hand them back. */
  readonly control: BrowserControl;
  /** The socket was open once: a 4403 after that means the access was revoked, not that there never was any. */
  private wasOpen = false;

  constructor(
    readonly id: Id,
    private readonly api: ApiClient,
    private readonly hooks: SessionHooks,
    socketOptions: SocketOptions = {},
  ) {
    this.store = new Store({ ...emptyConversationView(id), sharedTabIds: loadSharedTabs(id) });
    const context: SessionContext = {
      id,
      api,
      store: this.store,
      isDisposed: () => this.disposed,
      showNotice: (text) => this.showNotice(text),
    };
    this.reads = new TabReads(context);
    this.tools = new PageTools(context, (run) => this.hooks.onRun(run));
    this.control = new BrowserControl(context);
    // The share toggles survive switching conversations and reloading the page.
    this.store.subscribe((view, previous) => {
      if (view.sharedTabIds !== previous.sharedTabIds) saveSharedTabs(id, view.sharedTabIds);
    });
    this.socket = new ConversationSocket(conversationSocketUrl(id), socketOptions);
    this.socket.on("frame", (frame) => this.hooks.onFrame(frame));
    for (const type of [
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
      "error",
    ] as const) {
      this.socket.on(type, (event) => this.store.update((view) => applyServerEvent(view, event)));
    }
    this.socket.on("hello", (event) => {
      this.control.noteEvent();
      this.hooks.onConversation(this.store.get().conversation ?? event.conversation);
    });
    this.socket.on("control.updated", () => this.control.noteEvent());
    // The sidebar shows the new role too.
    this.socket.on("access.updated", () => {
      const conversation = this.store.get().conversation;
      if (conversation) this.hooks.onConversation(conversation);
    });
    this.socket.on("conversation.updated", (event) => this.hooks.onConversation(event.conversation));
    this.socket.on("tabs.updated", (event) => {
      this.tabEvents += 1;
      this.tools.tabsChanged(event.tabs);
    });
    this.socket.on("tab.content", (event) => this.reads.settled(event.content.tab_id));
    this.socket.on("tab.content.removed", (event) => this.reads.settled(event.tab_id));
    this.socket.on("tools.updated", () => this.tools.noteEvent());
    this.socket.on("run.updated", (event) => {
      this.store.update((view) => applyServerEvent(view, event));
      this.hooks.onRun(event.run);
    });
    this.socket.onStatus((status, { reconnected }) => {
      if (status === "open") this.wasOpen = true;
      if (status === "denied" && this.wasOpen) {
        // Revoked (or expired) while watching: the socket does not come back; nothing here may be used.
        this.store.update((view) => ({
          ...view,
          connection: status,
          revoked: true,
          presence: [],
          control: { holder: null, pending: null },
        }));
        this.hooks.onRevoked?.();
        return;
      }
      this.store.update((view) => ({ ...view, connection: status }));
      // Whatever happened while we were away is in the database: fetch it.
      if (status === "open" && reconnected) {
        void this.load();
        void this.tools.load();
      }
    });
  }

  start(): void {
    this.socket.connect();
    void this.load();
    void this.tools.load();
    void this.tools.loadSkills();
  }

  dispose(): void {
    this.disposed = true;
    this.socket.close();
    this.reads.dispose();
  }

  /** Loads messages and runs (with steps); concurrent calls coalesce into one more load. */
  load(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false;
        await this.loadOnce();
        // load() sets reloadAgain while this loop awaits, which the type checker cannot see.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      } while (this.reloadAgain && !this.disposed);
      this.loading = null;
    })();
    return this.loading;
  }

  private async loadOnce(): Promise<void> {
    const tabEventsBefore = this.tabEvents;
    const before = this.store.get();
    try {
      const [conversation, messages, runs, tabs] = await Promise.all([
        this.api.getConversation(this.id),
        this.api.listMessages(this.id),
        this.api.listRuns(this.id),
        // Tabs are a nicety on load (the websocket sends them as they change): never fail the load for them.
        this.api.listTabs(this.id).catch(() => null),
      ]);
      if (this.disposed) return;
      const freshTabs = tabs !== null && this.tabEvents === tabEventsBefore;
      this.store.update((view) => ({
        ...mergeSnapshot(view, messages, runs, before),
        // The websocket's word on the role (hello, access.updated) is fresher than this answer's.
        conversation:
          view.role && conversation.role !== view.role
            ? { ...conversation, role: view.role, shared: view.role !== "owner" }
            : conversation,
        tabs: freshTabs ? tabs : view.tabs,
        // A read that finished while the socket was away shows in the tabs: its spinner can stop.
        readingTabs: freshTabs ? settledReads(view.readingTabs, tabs) : view.readingTabs,
      }));
      this.hooks.onConversation(this.store.get().conversation ?? conversation);
    } catch (err) {
      if (this.disposed) return;
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        this.hooks.onSignedOut();
        return;
      }
      const message =
        err instanceof ApiError && err.status === 404
          ? "This conversation does not exist, or it is not shared with you."
          : err instanceof Error
            ? err.message
            : String(err);
      this.store.update((view) => (view.loaded ? view : { ...view, loadError: message }));
    }
  }

  /** The `tab_ids` for the next send: exactly the tabs toggled on (and read); none is `[]`. */
  tabIdsForSend(): string[] {
    const view = this.store.get();
    return tabIdsForSend(view.sharedTabIds, view.tabs);
  }

  /**
   * Sends a message. `tabIds` are the tabs shared with it (the whole set: it replaces the previous send's).
   * A 400 about unknown tab ids (a tab taken out of the context meanwhile) goes to the notice, those tabs
   * stop being shared, and a NoticeError rejects so the message stays in the composer to send again.
   */
  async send(content: string, tabIds?: string[]): Promise<SendMessageResult> {
    let result: SendMessageResult;
    try {
      result = await this.api.sendMessage(this.id, tabIds ? { content, tab_ids: tabIds } : { content });
    } catch (err) {
      const unknown = err instanceof ApiError && err.status === 400 ? unknownTabIds(err.summary) : null;
      if (!unknown || this.disposed) throw err;
      this.store.update((view) => ({
        ...view,
        sharedTabIds: view.sharedTabIds.filter((id) => !unknown.includes(id)),
      }));
      const text = `${(err as ApiError).summary} Those tabs are no longer shared; send again, or add them back.`;
      this.showNotice(text);
      void this.load();
      throw new NoticeError(text);
    }
    this.store.update((view) => ({
      ...view,
      messages: upsertMessage(view.messages, result.message),
      runs: upsertRun(view.runs, result.run),
      notice: null,
    }));
    this.hooks.onRun(result.run);
    return result;
  }

  async abort(runId: Id): Promise<void> {
    const run = await this.api.abortRun(runId);
    this.store.update((view) => ({ ...view, runs: upsertRun(view.runs, run) }));
    this.hooks.onRun(run);
  }

  /**
   * Approves or denies a step waiting for the user. The answer shows at once; a refusal (409: answered
   * elsewhere, or expired) rejects with the server's detail, and the conversation is re-read.
   */
  async answer(confirmationId: Id, approve: boolean): Promise<void> {
    try {
      const confirmation = await this.api.answerConfirmation(confirmationId, approve);
      if (!this.disposed) this.store.update((view) => applyConfirmation(view, confirmation));
    } catch (err) {
      if (!this.disposed && err instanceof ApiError && err.status === 409) void this.load();
      throw err;
    }
  }

  /**
   * Changes the conversation's settings (model, reasoning, confirmations): shown at once, undone if the
   * server refuses. Rejects with the server's error.
   */
  async updateSettings(patch: Partial<ConversationSettings>): Promise<Conversation> {
    const before = this.store.get().conversation;
    if (before) this.store.update((view) => ({ ...view, conversation: view.conversation && { ...view.conversation, ...patch } }));
    try {
      const conversation = await this.api.updateConversation(this.id, patch);
      if (!this.disposed) this.store.update((view) => ({ ...view, conversation }));
      return conversation;
    } catch (err) {
      if (!this.disposed && before) {
        // Undo only the fields this change touched (another change may have landed meanwhile).
        const undo = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof Conversation]]));
        this.store.update((view) => ({ ...view, conversation: view.conversation && { ...view.conversation, ...undo } }));
      }
      throw err;
    }
  }

  /**
   * Runs a browser action by hand (address bar, back, tabs …). The run shows in the timeline like any
   * other; a refusal (409 while a run is active, 400 bad arguments) goes to the notice. Resolves
   * whether the server took it.
   */
  async act(action: BrowserAction, args: Record<string, unknown> = {}): Promise<boolean> {
    let run: Run;
    try {
      run = await this.api.runAction(this.id, { action, arguments: args });
    } catch (err) {
      if (!this.disposed) this.showNotice(errorText(err));
      return false;
    }
    if (this.disposed) return true;
    this.store.update((view) => ({
      ...view,
      runs: upsertRun(view.runs, run),
      manualRuns: { ...view.manualRuns, [run.id]: action },
      notice: null,
    }));
    this.hooks.onRun(run);
    return true;
  }

  /** Uploads a file for the agent; it shows as a chip while uploading and after. Errors go to the notice. */
  async upload(file: File): Promise<void> {
    const key = `u${++uploadCounter}`;
    const chip = { key, id: null, name: file.name, size: file.size };
    this.store.update((view) => ({ ...view, files: [...view.files, chip] }));
    try {
      const stored = await this.api.uploadFile(this.id, file, file.name);
      this.store.update((view) => ({
        ...view,
        files: view.files.map((f) => (f.key === key ? { key, ...stored } : f)),
        notice: null,
      }));
    } catch (err) {
      this.store.update((view) => ({ ...view, files: view.files.filter((f) => f.key !== key) }));
      const text =
        err instanceof ApiError && err.status === 413 && !err.detail
          ? `“${file.name}” is too large to upload.`
          : `Could not upload “${file.name}”: ${errorText(err)}`;
      this.showNotice(text);
    }
  }

  /** Hides a file's chip (the file stays available to the agent). */
  dismissFile(key: string): void {
    this.store.update((view) => ({ ...view, files: view.files.filter((f) => f.key !== key) }));
  }

  /** Shows a notice; the same text again shows again even after it was dismissed. */
  showNotice(text: string): void {
    this.store.update((view) => ({ ...view, notice: null }));
    this.store.update((view) => ({ ...view, notice: text }));
  }

  /** The last frame was drawn or dropped: the server may send the next (it paces frames per viewer). */
  ackFrame(): void {
    this.socket.send({ type: "frame.ack" });
  }

  /** Sends live-view input; only while the signed-in user holds the browser's controls (the server refuses others'). */
  sendInput(command: InputCommand): boolean {
    const view = this.store.get();
    if (view.revoked || !mayInput(roleOf(view), view.control.holder, this.hooks.me ?? null)) return false;
    return this.socket.send({ type: "input", ...command });
  }
}
