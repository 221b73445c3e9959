// The signed-in dashboard: sidebar | chat with steps | live view + tabs (or the settings page), and the
// wiring between them. The open conversation and what the reader's role allows in it live in
// app/conversation.ts; the lists and their refreshes in app/lists.ts; the settings bar in app/settingsbar.ts; how
// the chat and the browser share the window (split, focus mode, one pane at a time on a phone) in app/layout.ts.

import type { ApiClient } from "./api/client";
import type { Permissions } from "./access";
import type { Conversation, ConversationSettings, Run } from "./api/types";
import { OpenConversation } from "./app/conversation";
import { LiveLayout } from "./app/layout";
import { ListRefresher, upsertConversation } from "./app/lists";
import { UserChannel } from "./app/userchannel";
import { saveRunAsWorkflow } from "./app/saveworkflow";
import { SettingsBar } from "./app/settingsbar";
import { h } from "./dom";
import { ChatPanel } from "./panels/chat";
import { ConversationsPanel } from "./panels/conversations";
import { openRunDebug } from "./panels/debug";
import { ToolInspector } from "./panels/inspector";
import { LiveView } from "./panels/liveview";
import { SettingsPanel } from "./panels/settings";
import { TabBar } from "./panels/tabs";
import { patchConversation } from "./reducer";
import type { Route } from "./router";
import type { ConversationSession } from "./session";
import type { AppState, Store } from "./state";
import { browserStorage } from "./theme";

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
  private readonly settingsBar: SettingsBar;
  private readonly settings: SettingsPanel;
  private readonly conversation: OpenConversation;
  private readonly lists: ListRefresher;
  private readonly userChannel: UserChannel;
  private readonly layout: LiveLayout;
  private lastConversationPath = "/";
  // The conversation "New conversation" is making: a send meanwhile goes to it, not to one more.
  private creating: Promise<void> | null = null;
  private readonly unsubscribeApp: () => void;

  constructor(private readonly options: AppOptions) {
    this.sidebar = new ConversationsPanel({
      onNew: () => this.newConversation(),
      onLogout: () => this.options.onSignOut(),
    });
    this.settingsBar = new SettingsBar(options.store, options.api, (patch) => this.changeSettings(patch));
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
          this.permissions.confirm ? (this.session?.answer(id, approve) ?? Promise.resolve()) : Promise.resolve(),
        takeControl: () =>
          this.permissions.control ? (this.session?.control.set("take") ?? Promise.resolve()) : Promise.resolve(),
        openDebug: (runId, label) => openRunDebug(runId, (id) => this.options.api.getRunDebug(id), label),
        saveWorkflow: (runId, label) => saveRunAsWorkflow(this.options.api, runId, label),
        loadRecording: (runId) => this.options.api.getRunRecording(runId),
      },
      settingsBar: this.settingsBar.el,
      onShare: () => this.conversation.openShare(),
    });
    this.settings = new SettingsPanel({
      api: options.api,
      store: options.store,
      refreshModels: () => this.lists.models(),
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
        this.permissions.skills
          ? (this.session?.tools.setSkill(skillId, enabled) ?? Promise.resolve())
          : Promise.reject(new Error("Only the conversation's owner can switch SKILLs.")),
    });
    this.live = new LiveView({
      sendInput: (command) => this.session?.sendInput(command) ?? false,
      frameDone: () => this.session?.ackFrame(),
      tabBar: this.tabBar.el,
      inspector: this.inspector.el,
      onControl: (take) => void this.session?.control.set(take ? "take" : "release"),
      onFocus: (on) => this.layout.setFocused(on),
      onPopout: () => this.popOut(),
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
    this.layout = new LiveLayout({
      shell: this.el,
      live: this.live.el,
      user: () => this.store.get().user?.username ?? "",
      controlling: () => this.live.isControlling,
      onFocusChange: (on) => this.live.setFocused(on),
      storage: browserStorage(),
    });
    this.el.appendChild(this.layout.paneTabs);
    this.layout.restore();
    const panels = { el: this.el, chat: this.chat, tabBar: this.tabBar, inspector: this.inspector, live: this.live };
    this.conversation = new OpenConversation(options.api, options.store, panels, {
      onRun: (run) => this.lists.noteRun(run),
      onConversation: (conversation) => this.upsertConversation(conversation),
      onSignedOut: () => this.options.onSignedOut(),
      onRevoked: () => this.lists.conversations(),
      onChanged: () => this.renderBar(),
    });
    this.unsubscribeApp = options.store.subscribe((state, previous) => {
      this.sidebar.update(state);
      this.conversation.syncWithList(state);
      this.settings.update(state);
      if (state.models !== previous.models || state === previous) this.renderBar();
    }, true);
    this.lists = new ListRefresher(options.api, options.store);
    this.userChannel = new UserChannel(options.store, () => this.lists.conversations());
  }

  show(route: Route): void {
    this.el.classList.remove("sidebar-open");
    this.el.classList.toggle("settings-open", route.name === "settings");
    this.el.classList.toggle("popout", route.name === "conversation" && !!route.popout);
    if (route.name !== "conversation" || this.session?.id !== route.id) this.layout.showPane("chat");
    if (route.name === "settings") {
      this.conversation.close();
      this.settings.show();
    } else if (route.name === "conversation") {
      this.lastConversationPath = `/c/${route.id}`;
      this.conversation.open(route.id);
    } else {
      this.conversation.close();
      this.chat.showHome();
    }
    this.renderBar();
  }

  destroy(): void {
    this.conversation.close();
    this.unsubscribeApp();
    this.sidebar.destroy();
    this.lists.destroy();
    this.userChannel.dispose();
    this.layout.dispose();
    this.el.remove();
  }

  private get store(): Store<AppState> {
    return this.options.store;
  }

  private get session(): ConversationSession | null {
    return this.conversation.session;
  }

  /** What the reader may do in the open conversation (everything on the home page). */
  private get permissions(): Permissions {
    return this.conversation.access.permissions;
  }

  private renderBar(): void {
    if (this.el.classList.contains("settings-open")) return;
    this.settingsBar.render(this.session?.store.get() ?? null, this.permissions.settings);
  }

  /** A change from the settings bar: saved to the open conversation, or kept for the next one. */
  private async changeSettings(patch: Partial<ConversationSettings>): Promise<void> {
    const session = this.session;
    if (!session) {
      this.settingsBar.keep(patch);
      this.renderBar();
      return;
    }
    const conversation = await session.updateSettings(patch);
    this.upsertConversation(conversation);
  }

  /** The live browser in a window of its own (the same conversation, its browser alone). */
  private popOut(): void {
    const session = this.session;
    if (!session) return;
    const opened = window.open(`/c/${session.id}/live`, `hive-live-${session.id}`, "popup,width=1320,height=900");
    if (!opened) session.showNotice("The browser blocked the new window: allow pop-ups for Hive and try again.");
  }

  private upsertConversation(conversation: Conversation): void {
    upsertConversation(this.store, conversation);
  }

  /** Opens a new conversation; a second press (or a send) while one is being made waits for that one. */
  private newConversation(): Promise<void> {
    this.creating ??= this.createConversation().finally(() => {
      this.creating = null;
    });
    return this.creating;
  }

  private async createConversation(): Promise<void> {
    const conversation = await this.options.api.createConversation(this.settingsBar.forNewConversation());
    this.upsertConversation(conversation);
    this.options.navigate(`/c/${conversation.id}`);
    this.chat.focusInput();
  }

  /** The conversation a message or file goes to: the one being made, else the open one, else a new one. */
  private async target(): Promise<void> {
    if (this.creating) await this.creating;
    if (!this.session) await this.newConversation();
  }

  private async send(content: string): Promise<void> {
    await this.target();
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
    await this.target();
    await this.session?.files.upload(file);
  }

  private async rename(title: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    const conversation = await this.options.api.renameConversation(session.id, title);
    session.store.update((view) => ({ ...view, conversation }));
    this.upsertConversation(conversation);
  }

  private async deleteConversation(): Promise<void> {
    const session = this.session;
    if (!session) return;
    await this.options.api.deleteConversation(session.id);
    this.store.update((s) => ({ ...s, conversations: s.conversations.filter((c) => c.id !== session.id) }));
    this.options.navigate("/", { replace: true });
  }
}
