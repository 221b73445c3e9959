// One open conversation: loads its history from the REST API, keeps it live from the websocket
// (re-fetching after every reconnect), and sends messages, aborts and live-view input; the tabs shared
// with the agent, and the active tab's WebMCP tools.

import { ApiError, type ApiClient } from "./api/client";
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
  Tab,
} from "./api/types";
import { mayInput, roleOf } from "./access";
import { applyConfirmation, applyServerEvent, mergeSnapshot, upsertMessage, upsertRun, withoutKey } from "./reducer";
import {
  READ_TIMEOUT_MS,
  loadSharedTabs,
  saveSharedTabs,
  tabIdsForSend,
  toggleShared,
  unknownTabIds,
} from "./sharing";
import { Store, emptyConversationView, readyToolsView, type ConversationView } from "./state";

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
  /** Counts tools.updated events, so a slower REST answer never overwrites fresher tools. */
  private toolEvents = 0;
  /** Reads that give up if no `tab.content` comes, by tab id. */
  private readonly readTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The tab the tools were last asked for (to ask again when another tab comes to the front). */
  private toolsTab: string | null | undefined = undefined;
  /** Counts control.updated events, so a slower answer to a take or hand-back never overwrites a fresher holder. */
  private controlEvents = 0;
  /** The socket was open once: a 4403 after that means the access was revoked, not that there never was any. */
  private wasOpen = false;

  constructor(
    readonly id: Id,
    private readonly api: ApiClient,
    private readonly hooks: SessionHooks,
    socketOptions: SocketOptions = {},
  ) {
    this.store = new Store({ ...emptyConversationView(id), sharedTabIds: loadSharedTabs(id) });
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
      this.controlEvents += 1;
      this.hooks.onConversation(this.store.get().conversation ?? event.conversation);
    });
    this.socket.on("control.updated", () => (this.controlEvents += 1));
    // The sidebar shows the new role too.
    this.socket.on("access.updated", () => {
      const conversation = this.store.get().conversation;
      if (conversation) this.hooks.onConversation(conversation);
    });
    this.socket.on("conversation.updated", (event) => this.hooks.onConversation(event.conversation));
    this.socket.on("tabs.updated", (event) => {
      this.tabEvents += 1;
      // Another tab came to the front: its tools are others (tools.updated may say so too; this is cheap).
      if (activeTabId(event.tabs) !== this.toolsTab) void this.loadTools();
    });
    this.socket.on("tab.content", (event) => this.clearReadTimer(event.content.tab_id));
    this.socket.on("tab.content.removed", (event) => this.clearReadTimer(event.tab_id));
    this.socket.on("tools.updated", () => (this.toolEvents += 1));
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
        void this.loadTools();
      }
    });
  }

  start(): void {
    this.socket.connect();
    void this.load();
    void this.loadTools();
    void this.loadSkills();
  }

  dispose(): void {
    this.disposed = true;
    this.socket.close();
    for (const timer of this.readTimers.values()) clearTimeout(timer);
    this.readTimers.clear();
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

  // --- Shared tabs ---

  /**
   * Turns a tab's "share with the agent" toggle on or off. On, for a tab not yet in the context, reads it
   * first (the spinner shows until `tab.content`). Off only stops sharing it with the next sends: it stays
   * in the context.
   */
  shareTab(tabId: string, on: boolean): void {
    this.store.update((view) => ({ ...view, sharedTabIds: toggleShared(view.sharedTabIds, tabId, on) }));
    const view = this.store.get();
    const tab = view.tabs.find((t) => t.id === tabId);
    if (on && !tab?.context && !(tabId in view.readingTabs)) void this.readTab(tabId);
  }

  /** Reads a tab into the context (or again: the refresh button). Errors go to the notice. */
  async readTab(tabId: string): Promise<void> {
    if (tabId in this.store.get().readingTabs) return;
    this.store.update((view) => ({ ...view, readingTabs: { ...view.readingTabs, [tabId]: Date.now() } }));
    this.clearReadTimer(tabId);
    this.readTimers.set(
      tabId,
      setTimeout(() => {
        this.readTimers.delete(tabId);
        if (this.disposed || !(tabId in this.store.get().readingTabs)) return;
        this.endRead(tabId);
        this.showNotice(`Reading “${tabName(this.store.get().tabs, tabId)}” took too long. Try again with its refresh button.`);
      }, READ_TIMEOUT_MS),
    );
    try {
      await this.api.readTab(this.id, tabId);
    } catch (err) {
      this.clearReadTimer(tabId);
      if (this.disposed) return;
      this.endRead(tabId);
      this.showNotice(`Could not read “${tabName(this.store.get().tabs, tabId)}”: ${errorText(err)}`);
    }
  }

  /** Takes a tab out of the context: it is not shared any more either. Errors go to the notice. */
  async removeFromContext(tabId: string): Promise<void> {
    try {
      await this.api.removeTabContent(this.id, tabId);
    } catch (err) {
      if (!this.disposed) this.showNotice(`Could not remove “${tabName(this.store.get().tabs, tabId)}”: ${errorText(err)}`);
      return;
    }
    if (this.disposed) return;
    // The tab.content.removed event says the same; this shows it at once.
    this.store.update((view) => applyServerEvent(view, { type: "tab.content.removed", tab_id: tabId }));
  }

  /** A read failed or gave up: no spinner, and a toggle that has nothing to share goes off. */
  private endRead(tabId: string): void {
    this.store.update((view) => {
      const tab = view.tabs.find((t) => t.id === tabId);
      return {
        ...view,
        readingTabs: withoutKey(view.readingTabs, tabId),
        sharedTabIds: tab?.context ? view.sharedTabIds : view.sharedTabIds.filter((id) => id !== tabId),
      };
    });
  }

  private clearReadTimer(tabId: string): void {
    const timer = this.readTimers.get(tabId);
    if (timer !== undefined) clearTimeout(timer);
    this.readTimers.delete(tabId);
  }

  // --- WebMCP tools and SKILLs ---

  /** Loads the active tab's tools; a 404 (no tools endpoint) reads as "no tools on this page". */
  async loadTools(): Promise<void> {
    const eventsBefore = this.toolEvents;
    this.toolsTab = activeTabId(this.store.get().tabs);
    this.store.update((view) =>
      view.tools.status === "ready" ? view : { ...view, tools: { ...view.tools, status: "loading", error: null } },
    );
    try {
      const page = await this.api.getTools(this.id);
      if (this.disposed || this.toolEvents !== eventsBefore) return;
      this.store.update((view) => ({ ...view, tools: readyToolsView(page) }));
    } catch (err) {
      if (this.disposed || this.toolEvents !== eventsBefore) return;
      const unavailable = err instanceof ApiError && err.status === 404;
      this.store.update((view) => ({
        ...view,
        tools: {
          status: unavailable ? "unavailable" : "error",
          tab: null,
          tools: [],
          skills: [],
          error: unavailable ? null : errorText(err),
        },
      }));
    }
  }

  /** The SKILL library with this conversation's switches (left empty when it cannot be read). */
  async loadSkills(): Promise<void> {
    try {
      const skills = await this.api.listConversationSkills(this.id);
      if (!this.disposed) this.store.update((view) => ({ ...view, skills }));
    } catch {
      if (!this.disposed) this.store.update((view) => ({ ...view, skills: view.skills ?? [] }));
    }
  }

  /** Turns a SKILL on or off in this conversation: shown at once, undone if the server refuses (rejects). */
  async setSkill(skillId: Id, enabled: boolean): Promise<void> {
    const patch = (on: boolean) => (view: ConversationView) => ({
      ...view,
      skills: view.skills?.map((s) => (s.id === skillId ? { ...s, enabled_here: on } : s)) ?? null,
    });
    this.store.update(patch(enabled));
    try {
      const skill = await this.api.setConversationSkill(this.id, skillId, enabled);
      if (!this.disposed) {
        this.store.update((view) => ({ ...view, skills: view.skills?.map((s) => (s.id === skill.id ? skill : s)) ?? [skill] }));
      }
    } catch (err) {
      if (!this.disposed) this.store.update(patch(!enabled));
      throw err;
    }
  }

  /**
   * Calls a tool of the active tab by hand. The run shows in the timeline like an action run by hand; its one
   * step (result as observation, screenshot after) arrives over the websocket. Rejects with the API's error.
   */
  async callTool(name: string, args: Record<string, unknown>): Promise<Run> {
    const run = await this.api.callTool(this.id, { name, arguments: args });
    if (this.disposed) return run;
    this.store.update((view) => ({
      ...view,
      runs: upsertRun(view.runs, run),
      manualRuns: { ...view.manualRuns, [run.id]: name },
      notice: null,
    }));
    this.hooks.onRun(run);
    return run;
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

  // --- The browser's controls ---

  /**
   * Takes the live browser's controls (the agent pauses after its current step) or hands them back. The
   * answer says who holds them now (as `control.updated` tells everyone watching); a refusal (409: someone
   * else holds them, 403: not a controller) goes to the notice.
   */
  async setControl(action: "take" | "release"): Promise<void> {
    const view = this.store.get();
    if (view.control.pending || view.revoked) return;
    const eventsBefore = this.controlEvents;
    this.store.update((v) => ({ ...v, control: { ...v.control, pending: action } }));
    try {
      const { holder } = await this.api.setControl(this.id, action);
      if (this.disposed) return;
      this.store.update((v) => ({
        ...v,
        // A control.updated that came meanwhile is at least as fresh as this answer.
        control: { holder: this.controlEvents === eventsBefore ? (holder ?? null) : v.control.holder, pending: null },
      }));
    } catch (err) {
      if (this.disposed) return;
      this.store.update((v) => ({ ...v, control: { ...v.control, pending: null } }));
      this.showNotice(errorText(err));
      await this.loadControl();
    }
  }

  /** Asks who holds the controls (after a refusal, the page's idea of it was wrong). */
  async loadControl(): Promise<void> {
    const eventsBefore = this.controlEvents;
    try {
      const { holder } = await this.api.getControl(this.id);
      if (this.disposed || this.controlEvents !== eventsBefore) return;
      this.store.update((v) => ({ ...v, control: { holder: holder ?? null, pending: v.control.pending } }));
    } catch {
      // The websocket's control.updated will say it.
    }
  }
}

function activeTabId(tabs: readonly Tab[]): string | null {
  return tabs.find((t) => t.active)?.id ?? null;
}

function tabName(tabs: readonly Tab[], tabId: string): string {
  const tab = tabs.find((t) => t.id === tabId);
  return tab?.title || tab?.url || "the tab";
}

/** Reads asked for before the tabs' saved content was read are over. */
function settledReads(reading: Record<string, number>, tabs: readonly Tab[]): Record<string, number> {
  let next = reading;
  for (const tab of tabs) {
    const at = tab.context?.extracted_at ? Date.parse(tab.context.extracted_at) : NaN;
    const askedAt = reading[tab.id];
    if (askedAt !== undefined && at >= askedAt) next = withoutKey(next, tab.id);
  }
  return next;
}
