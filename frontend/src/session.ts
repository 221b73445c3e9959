// One open conversation: its history from the REST API (session/history.ts), kept live from the websocket
// (session/live.ts), the tabs read for the agent, the active tab's tools, the browser's controls and uploads;
// and what the reader sends: messages, aborts, answers to confirmations, settings, actions by hand, live input.

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
import { applyConfirmation, upsertMessage, upsertRun } from "./reducer";
import { loadSharedTabs, saveSharedTabs, tabIdsForSend, unknownTabIds } from "./sharing";
import { BrowserControl } from "./session/control";
import type { SessionContext } from "./session/context";
import { History } from "./session/history";
import { followSocket } from "./session/live";
import { TabReads } from "./session/tabreads";
import { PageTools } from "./session/tools";
import { Uploads } from "./session/uploads";
import { Store, emptyConversationView, type ConversationView } from "./state";

/** An error already shown in the conversation's notice: whoever catches it need not show it again. */
export class NoticeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoticeError";
  }
}

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
  /** Messages, runs and tabs as the REST API has them. */
  private readonly history: History;
  /** The tabs read into the context for the agent, and the share toggles. */
  readonly reads: TabReads;
  /** The active tab's WebMCP tools and this conversation's SKILLs. */
  readonly tools: PageTools;
  /** Who holds the live browser's controls; take them or hand them back. */
  readonly control: BrowserControl;
  /** Files uploaded for the agent, shown as chips. */
  readonly files: Uploads;

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
    this.history = new History(context, hooks);
    this.reads = new TabReads(context);
    this.tools = new PageTools(context, (run) => this.hooks.onRun(run));
    this.control = new BrowserControl(context);
    this.files = new Uploads(context);
    // The share toggles survive switching conversations and reloading the page.
    this.store.subscribe((view, previous) => {
      if (view.sharedTabIds !== previous.sharedTabIds) saveSharedTabs(id, view.sharedTabIds);
    });
    this.socket = new ConversationSocket(conversationSocketUrl(id), socketOptions);
    followSocket(this.socket, {
      store: this.store,
      history: this.history,
      reads: this.reads,
      tools: this.tools,
      control: this.control,
      hooks,
    });
  }

  start(): void {
    this.socket.connect();
    void this.history.load();
    void this.tools.load();
    void this.tools.loadSkills();
  }

  dispose(): void {
    this.disposed = true;
    this.socket.close();
    this.reads.dispose();
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
      void this.history.load();
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
      if (!this.disposed && err instanceof ApiError && err.status === 409) void this.history.load();
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
