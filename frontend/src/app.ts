// The signed-in dashboard: sidebar | chat with steps | live view + tabs (or the settings page), and the
// wiring between them. In a conversation shared with the reader, what they may do follows their role
// (access.ts): a viewer watches, a controller also acts, only the owner changes settings and shares.

import { isRole, roleOf } from "./access";
import type { ApiClient } from "./api/client";
import { errorText } from "./errors";
import type { Conversation, ConversationSettings, Id, Role, Run } from "./api/types";
import { AccessRenderer } from "./app/access";
import { refreshConversations, refreshModels, upsertConversation } from "./app/lists";
import { h } from "./dom";
import { conversationSettings, defaultConversationSettings } from "./models";
import { ChatPanel } from "./panels/chat";
import { ConversationBar } from "./panels/convbar";
import { ConversationsPanel } from "./panels/conversations";
import { openRunDebug } from "./panels/debug";
import { ToolInspector } from "./panels/inspector";
import { LiveView } from "./panels/liveview";
import { SettingsPanel } from "./panels/settings";
import { openShareDialog, type ShareDialog } from "./panels/share";
import { TabBar, type TabBarState } from "./panels/tabs";
import { isTerminalStatus, patchConversation } from "./reducer";
import type { Route } from "./router";
import { ConversationSession } from "./session";
import type { AppState, ConversationView, Store } from "./state";

/** How often the conversation list is re-read while the page is visible (conversations shared meanwhile). */
const LIST_REFRESH_MS = 30_000;

export interface AppOptions {
  api: ApiClient;
  store: Store<AppState>;
  navigate: (path: string, options?: { replace?: boolean }) => void;
  onSignOut: () => Promise<void>;
  /** The API says the session is gone (expired or signed out elsewhere). */
  onSignedOut: () => void;
}

export class App {
  readonly el: HTMLElement;
  private readonly sidebar: ConversationsPanel;
  private readonly chat: ChatPanel;
  private readonly tabBar: TabBar;
  private readonly live: LiveView;
  private readonly inspector: ToolInspector;
  private readonly bar: ConversationBar;
  private readonly settings: SettingsPanel;
  /** Settings for the next conversation started from the home page; null until the user changes one. */
  private draft: ConversationSettings | null = null;
  private lastConversationPath = "/";
  private session: ConversationSession | null = null;
  private unsubscribeSession: (() => void) | null = null;
  private readonly unsubscribeApp: () => void;
  private refreshTimer: number | null = null;
  private readonly listTimer: number;
  private shareDialog: ShareDialog | null = null;
  private readonly access: AccessRenderer;
  private readonly onFocus = (): void => {
    this.refreshConversations();
    void this.refreshModels();
  };

  constructor(private readonly options: AppOptions) {
    this.sidebar = new ConversationsPanel({
      onNew: () => this.newConversation(),
      onLogout: () => this.options.onSignOut(),
    });
    this.bar = new ConversationBar({ onChange: (patch) => this.changeSettings(patch) });
    this.chat = new ChatPanel({
      onSend: (content) => this.send(content),
      onAbort: (runId) => this.session?.abort(runId) ?? Promise.resolve(),
      onRename: (title) => this.rename(title),
      onDelete: () => this.deleteConversation(),
      onToggleSidebar: () => this.el.classList.toggle("sidebar-open"),
      onUpload: (file) => this.upload(file),
      onDismissFile: (key) => this.session?.files.dismiss(key),
      runActions: {
        answer: (id, approve) =>
          this.access.permissions.confirm ? (this.session?.answer(id, approve) ?? Promise.resolve()) : Promise.resolve(),
        openDebug: (runId) => openRunDebug(runId, (id) => this.options.api.getRunDebug(id)),
        saveWorkflow: (runId) => this.saveWorkflow(runId),
      },
      settingsBar: this.bar.el,
      onShare: () => this.openShare(),
    });
    this.settings = new SettingsPanel({
      api: options.api,
      store: options.store,
      refreshModels: () => this.refreshModels(),
      onToggleSidebar: () => this.el.classList.toggle("sidebar-open"),
      backHref: () => this.lastConversationPath,
      openConversation: (id) => this.options.navigate(`/c/${id}`),
    });
    this.tabBar = new TabBar({
      act: (action, args) => this.session?.act(action, args) ?? Promise.resolve(false),
      notify: (message) => this.session?.showNotice(message),
      share: (tabId, on) => this.session?.reads.share(tabId, on),
      refresh: (tabId) => void this.session?.reads.read(tabId),
      removeContext: (tabId) => void this.session?.reads.remove(tabId),
    });
    this.inspector = new ToolInspector({
      call: (name, args) => this.callTool(name, args),
      refresh: () => {
        void this.session?.tools.load();
        void this.session?.tools.loadSkills();
      },
      setSkill: (skillId, enabled) =>
        this.access.permissions.skills
          ? (this.session?.tools.setSkill(skillId, enabled) ?? Promise.resolve())
          : Promise.reject(new Error("Only the conversation's owner can switch SKILLs.")),
    });
    this.live = new LiveView({
      sendInput: (command) => this.session?.sendInput(command) ?? false,
      frameDone: () => this.session?.ackFrame(),
      tabBar: this.tabBar.el,
      inspector: this.inspector.el,
      onControl: (take) => void this.session?.control.set(take ? "take" : "release"),
    });
    this.el = h(
      "div",
      { class: "app-shell" },
      this.sidebar.el,
      this.chat.el,
      this.live.el,
      this.settings.el,
      h("div", { class: "scrim", onclick: () => this.el.classList.remove("sidebar-open") }),
    );
    this.access = new AccessRenderer({
      el: this.el,
      chat: this.chat,
      live: this.live,
      tabBar: this.tabBar,
      inspector: this.inspector,
      onRevoked: () => this.shareDialog?.close(),
    });
    this.unsubscribeApp = options.store.subscribe((state, previous) => {
      this.sidebar.update(state);
      this.syncOpenConversation(state);
      this.settings.update(state);
      if (state.models !== previous.models || state === previous) this.renderBar();
    }, true);
    window.addEventListener("focus", this.onFocus);
    this.refreshConversations();
    void this.refreshModels();
    // Conversations shared with the reader show up without a reload.
    this.listTimer = window.setInterval(() => {
      if (document.visibilityState === "visible") this.refreshConversations();
    }, LIST_REFRESH_MS);
  }

  show(route: Route): void {
    this.el.classList.remove("sidebar-open");
    this.el.classList.toggle("settings-open", route.name === "settings");
    if (route.name === "settings") {
      this.close();
      this.settings.show();
    } else if (route.name === "conversation") {
      this.lastConversationPath = `/c/${route.id}`;
      this.open(route.id);
    } else {
      this.close();
      this.chat.showHome();
    }
    this.renderBar();
  }

  destroy(): void {
    this.close();
    this.unsubscribeApp();
    this.sidebar.destroy();
    window.clearInterval(this.listTimer);
    window.removeEventListener("focus", this.onFocus);
    if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
    this.el.remove();
  }

  private get store(): Store<AppState> {
    return this.options.store;
  }

  private open(id: Id): void {
    if (this.session?.id === id) return;
    this.close();
    const session = new ConversationSession(id, this.options.api, {
      onFrame: (frame) => this.session === session && this.live.pushFrame(frame),
      onRun: (run) => this.onRun(run),
      onConversation: (conversation) => this.upsertConversation(conversation),
      onSignedOut: () => this.options.onSignedOut(),
      onRevoked: () => this.onRevoked(session),
      me: this.store.get().user?.username ?? null,
    });
    this.session = session;
    this.store.update((s) => ({ ...s, activeConversationId: id }));
    this.live.setEnabled(true);
    this.tabBar.setEnabled(true);
    let shownTabs: TabBarState | null = null;
    this.unsubscribeSession = session.store.subscribe((view, previous) => {
      this.chat.update(view);
      if (
        view.tabs !== shownTabs?.tabs ||
        view.sharedTabIds !== shownTabs.shared ||
        view.readingTabs !== shownTabs.reading
      ) {
        this.tabBar.update((shownTabs = { tabs: view.tabs, shared: view.sharedTabIds, reading: view.readingTabs }));
      }
      this.inspector.update(view);
      if (view === previous || view.tools !== previous.tools) this.live.setToolCount(ToolInspector.countTools(view.tools));
      const accessChanged =
        view === previous ||
        view.role !== previous.role ||
        view.conversation !== previous.conversation ||
        view.presence !== previous.presence ||
        view.control !== previous.control ||
        view.revoked !== previous.revoked ||
        view.loadError !== previous.loadError;
      if (accessChanged) this.renderAccess(view);
      if (view === previous || view.conversation !== previous.conversation || view.loadError !== previous.loadError || accessChanged)
        this.renderBar();
    }, true);
    session.start();
  }

  /** The reader's role in the open conversation: the session's word, else the conversation list's. */
  private roleFor(view: ConversationView): Role | null {
    const role = roleOf(view);
    if (role) return role;
    const listed = this.store.get().conversations.find((c) => c.id === view.id)?.role;
    return isRole(listed) ? listed : null;
  }

  /** Shows what the reader's role allows everywhere: chat, live view, tab bar, Tool Inspector, settings bar. */
  private renderAccess(view: ConversationView): void {
    const me = this.store.get().user?.username ?? null;
    this.access.render(view, view.revoked ? null : this.roleFor(view), me);
  }

  /** The owner cut the reader's access while the conversation was open: it leaves the list too. */
  private onRevoked(session: ConversationSession): void {
    if (this.session !== session) return;
    this.refreshConversations();
  }

  private openShare(): void {
    const session = this.session;
    if (!session || !this.access.permissions.share) return;
    this.shareDialog?.close();
    this.shareDialog = openShareDialog({
      api: this.options.api,
      conversationId: session.id,
      title: session.store.get().conversation?.title ?? "",
    });
  }

  private close(): void {
    this.unsubscribeSession?.();
    this.unsubscribeSession = null;
    this.shareDialog?.close();
    this.shareDialog = null;
    this.access.reset();
    this.session?.dispose();
    this.session = null;
    this.live.setEnabled(false);
    this.tabBar.setEnabled(false);
    this.tabBar.update({ tabs: [], shared: [], reading: {} });
    this.inspector.update(null);
    this.live.setToolCount(0);
    if (this.store.get().activeConversationId !== null)
      this.store.update((s) => ({ ...s, activeConversationId: null }));
  }

  /** The list is refreshed after runs (the server may retitle a conversation): keep the chat header in step. */
  private syncOpenConversation(state: AppState): void {
    const session = this.session;
    const fresh = session && state.conversations.find((c) => c.id === session.id);
    if (!session || !fresh) return;
    const shown = session.store.get().conversation;
    if (shown && shown.title !== fresh.title) session.store.update((view) => ({ ...view, conversation: fresh }));
  }

  /** The settings a conversation started now gets: the home page's choice, if its model still exists. */
  private draftSettings(): ConversationSettings {
    const models = this.store.get().models;
    const draft = this.draft ?? defaultConversationSettings(models);
    const known = draft.model_profile === null || !models.loaded || models.profiles.some((p) => p.id === draft.model_profile);
    return known ? draft : { ...draft, model_profile: defaultConversationSettings(models).model_profile };
  }

  private renderBar(): void {
    const models = this.store.get().models;
    const session = this.session;
    if (this.el.classList.contains("settings-open")) return;
    if (session) {
      const view = session.store.get();
      const conversation = view.conversation;
      this.bar.update({
        settings: conversationSettings(conversation ?? {}),
        models,
        disabled: !conversation,
        // Only the owner changes the conversation's settings.
        hidden: !!view.loadError || view.revoked || !this.access.permissions.settings,
        draft: false,
      });
    } else {
      this.bar.update({ settings: this.draftSettings(), models, disabled: false, hidden: false, draft: true });
    }
  }

  /** A change from the settings bar: saved to the open conversation, or kept for the next one. */
  private async changeSettings(patch: Partial<ConversationSettings>): Promise<void> {
    const session = this.session;
    if (!session) {
      this.draft = { ...this.draftSettings(), ...patch };
      this.renderBar();
      return;
    }
    const conversation = await session.updateSettings(patch);
    this.upsertConversation(conversation);
  }

  private refreshConversations(): void {
    refreshConversations(this.options.api, this.store);
  }

  private refreshModels(): Promise<void> {
    return refreshModels(this.options.api, this.store);
  }

  /** Titles can change when a run ends (the server may name the conversation): refresh soon after. */
  private refreshSoon(): void {
    if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = null;
      this.refreshConversations();
    }, 500);
  }

  private upsertConversation(conversation: Conversation): void {
    upsertConversation(this.store, conversation);
  }

  private onRun(run: Run): void {
    this.store.update((s) => ({
      ...s,
      conversations: patchConversation(s.conversations, run.conversation, { last_run_status: run.status }),
    }));
    if (isTerminalStatus(run.status)) this.refreshSoon();
  }

  private async newConversation(): Promise<void> {
    const conversation = await this.options.api.createConversation(this.draftSettings());
    this.upsertConversation(conversation);
    this.options.navigate(`/c/${conversation.id}`);
    this.chat.focusInput();
  }

  private async send(content: string): Promise<void> {
    if (!this.session) await this.newConversation();
    const session = this.session;
    if (!session) return;
    // Per-send override: exactly the tabs toggled on now (none is []).
    const { run } = await session.send(content, session.tabIdsForSend());
    this.store.update((s) => ({
      ...s,
      conversations: patchConversation(s.conversations, session.id, {
        updated_at: new Date().toISOString(),
        last_run_status: run.status,
      }),
    }));
  }

  /** Calls a tool of the active tab by hand (the Tool Inspector); rejects with the API's error. */
  private async callTool(name: string, args: Record<string, unknown>): Promise<Run> {
    const session = this.session;
    if (!session) throw new Error("Open a conversation first.");
    return session.tools.call(name, args);
  }

  /** Uploads a file to the open conversation; from the home page it starts one first, as sending does. */
  private async upload(file: File): Promise<void> {
    if (!this.session) await this.newConversation();
    await this.session?.files.upload(file);
  }

  private async rename(title: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    const conversation = await this.options.api.renameConversation(session.id, title);
    session.store.update((view) => ({ ...view, conversation }));
    this.upsertConversation(conversation);
  }

  /** "Save as workflow" on a run that worked: named by the user, then listed in Settings → Workflows. */
  private async saveWorkflow(runId: Id): Promise<string> {
    const name = window.prompt("Name this workflow (it replays these steps without the model):", "");
    if (!name?.trim()) return "";
    try {
      const workflow = await this.options.api.saveWorkflow(runId, name.trim());
      const parameters = workflow.parameters.map((p) => p.name).join(", ");
      return `Saved as “${workflow.name}”${parameters ? ` (parameters: ${parameters})` : ""}. Run it from Settings → Workflows.`;
    } catch (err) {
      return `Not saved: ${errorText(err)}`;
    }
  }

  private async deleteConversation(): Promise<void> {
    const session = this.session;
    if (!session) return;
    await this.options.api.deleteConversation(session.id);
    this.store.update((s) => ({ ...s, conversations: s.conversations.filter((c) => c.id !== session.id) }));
    this.options.navigate("/", { replace: true });
  }
}
