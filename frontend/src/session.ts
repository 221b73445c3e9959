// One open conversation: loads its history from the REST API, keeps it live from the websocket
// (re-fetching after every reconnect), and sends messages, aborts and live-view input.

import { ApiError, type ApiClient } from "./api/client";
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
import { applyConfirmation, applyServerEvent, mergeSnapshot, upsertMessage, upsertRun } from "./reducer";
import { Store, emptyConversationView, type ConversationView } from "./state";

/** Keys the file chips of uploads in progress (unique across conversations of this page). */
let uploadCounter = 0;

export interface SessionHooks {
  onFrame: (frame: FrameEvent) => void;
  /** A run of this conversation changed (to keep the sidebar's status and order right). */
  onRun: (run: Run) => void;
  onConversation: (conversation: Conversation) => void;
  /** The REST API answered 401/403: the session cookie is gone. */
  onSignedOut: () => void;
}

export class ConversationSession {
  readonly store: Store<ConversationView>;
  private readonly socket: ConversationSocket;
  private disposed = false;
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  /** Counts tabs.updated events, so a slower REST answer never overwrites fresher tabs. */
  private tabEvents = 0;

  constructor(
    readonly id: Id,
    private readonly api: ApiClient,
    private readonly hooks: SessionHooks,
    socketOptions: SocketOptions = {},
  ) {
    this.store = new Store(emptyConversationView(id));
    this.socket = new ConversationSocket(conversationSocketUrl(id), socketOptions);
    this.socket.on("frame", (frame) => this.hooks.onFrame(frame));
    for (const type of [
      "hello",
      "conversation.updated",
      "message.created",
      "assistant.delta",
      "step.created",
      "step.updated",
      "tabs.updated",
      "confirmation.requested",
      "confirmation.updated",
      "plan.updated",
      "error",
    ] as const) {
      this.socket.on(type, (event) => this.store.update((view) => applyServerEvent(view, event)));
    }
    this.socket.on("hello", (event) => this.hooks.onConversation(event.conversation));
    this.socket.on("conversation.updated", (event) => this.hooks.onConversation(event.conversation));
    this.socket.on("tabs.updated", () => (this.tabEvents += 1));
    this.socket.on("run.updated", (event) => {
      this.store.update((view) => applyServerEvent(view, event));
      this.hooks.onRun(event.run);
    });
    this.socket.onStatus((status, { reconnected }) => {
      this.store.update((view) => ({ ...view, connection: status }));
      // Whatever happened while we were away is in the database: fetch it.
      if (status === "open" && reconnected) void this.load();
    });
  }

  start(): void {
    this.socket.connect();
    void this.load();
  }

  dispose(): void {
    this.disposed = true;
    this.socket.close();
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
        conversation,
        tabs: freshTabs ? tabs : view.tabs,
      }));
      this.hooks.onConversation(conversation);
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

  async send(content: string, tabIds?: string[]): Promise<SendMessageResult> {
    const result = await this.api.sendMessage(this.id, tabIds ? { content, tab_ids: tabIds } : { content });
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

  sendInput(command: InputCommand): boolean {
    return this.socket.send({ type: "input", ...command });
  }
}

function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.summary;
  return err instanceof Error ? err.message : String(err);
}
