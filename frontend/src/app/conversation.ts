// The conversation open in the dashboard: its session, its view drawn into the chat, the tab bar, the Tool
// Inspector and the live view, with what the reader's role allows (app/access.ts); and the owner's share
// dialog while it is open.

import { isRole, roleOf } from "../access";
import type { ApiClient } from "../api/client";
import type { Conversation, Id, Role, Run } from "../api/types";
import type { ChatPanel } from "../panels/chat";
import { ToolInspector } from "../panels/inspector";
import type { LiveView } from "../panels/liveview";
import { openShareDialog, type ShareDialog } from "../panels/share";
import type { TabBar, TabBarState } from "../panels/tabs";
import { ConversationSession } from "../session";
import type { AppState, ConversationView, Store } from "../state";
import { AccessRenderer } from "./access";

export interface ConversationPanels {
  /** The app's shell: carries the reader's role in data attributes. */
  el: HTMLElement;
  chat: ChatPanel;
  tabBar: TabBar;
  inspector: ToolInspector;
  live: LiveView;
}

export interface OpenConversationHooks {
  onRun: (run: Run) => void;
  onConversation: (conversation: Conversation) => void;
  /** The API says the session is gone (expired or signed out elsewhere). */
  onSignedOut: () => void;
  /** The owner cut the reader's access while the conversation was open: it leaves the list too. */
  onRevoked: () => void;
  /** The conversation, its load or the reader's access changed: the settings bar follows. */
  onChanged: () => void;
}

export class OpenConversation {
  session: ConversationSession | null = null;
  readonly access: AccessRenderer;
  private unsubscribe: (() => void) | null = null;
  private shareDialog: ShareDialog | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly store: Store<AppState>,
    private readonly panels: ConversationPanels,
    private readonly hooks: OpenConversationHooks,
  ) {
    this.access = new AccessRenderer({ ...panels, onRevoked: () => this.shareDialog?.close() });
  }

  open(id: Id): void {
    if (this.session?.id === id) return;
    this.close();
    const { chat, tabBar, inspector, live } = this.panels;
    const session: ConversationSession = new ConversationSession(id, this.api, {
      onFrame: (frame) => this.session === session && live.pushFrame(frame),
      onRun: (run) => this.hooks.onRun(run),
      onConversation: (conversation) => this.hooks.onConversation(conversation),
      onSignedOut: () => this.hooks.onSignedOut(),
      onRevoked: () => this.session === session && this.hooks.onRevoked(),
      me: this.store.get().user?.username ?? null,
    });
    this.session = session;
    this.store.update((s) => ({ ...s, activeConversationId: id }));
    live.setEnabled(true);
    tabBar.setEnabled(true);
    let shownTabs: TabBarState | null = null;
    this.unsubscribe = session.store.subscribe((view, previous) => {
      chat.update(view);
      if (
        view.tabs !== shownTabs?.tabs ||
        view.sharedTabIds !== shownTabs.shared ||
        view.readingTabs !== shownTabs.reading
      ) {
        tabBar.update((shownTabs = { tabs: view.tabs, shared: view.sharedTabIds, reading: view.readingTabs }));
      }
      inspector.update(view);
      if (view === previous || view.tools !== previous.tools) live.setToolCount(ToolInspector.countTools(view.tools));
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
        this.hooks.onChanged();
    }, true);
    session.start();
  }

  close(): void {
    const { tabBar, inspector, live } = this.panels;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.shareDialog?.close();
    this.shareDialog = null;
    this.access.reset();
    this.session?.dispose();
    this.session = null;
    live.setEnabled(false);
    tabBar.setEnabled(false);
    tabBar.update({ tabs: [], shared: [], reading: {} });
    inspector.update(null);
    live.setToolCount(0);
    if (this.store.get().activeConversationId !== null)
      this.store.update((s) => ({ ...s, activeConversationId: null }));
  }

  /** Opens the share dialog (the owner's). */
  openShare(): void {
    const session = this.session;
    if (!session || !this.access.permissions.share) return;
    this.shareDialog?.close();
    this.shareDialog = openShareDialog({
      api: this.api,
      conversationId: session.id,
      title: session.store.get().conversation?.title ?? "",
    });
  }

  /** The list is refreshed after runs (the server may retitle a conversation): keep the chat header in step. */
  syncWithList(state: AppState): void {
    const session = this.session;
    const fresh = session && state.conversations.find((c) => c.id === session.id);
    if (!session || !fresh) return;
    const shown = session.store.get().conversation;
    if (shown && shown.title !== fresh.title) session.store.update((view) => ({ ...view, conversation: fresh }));
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
}
