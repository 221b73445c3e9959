// What the reader's role in the open conversation allows, shown everywhere at once: the chat, the live
// view's controls, the tab bar, the Tool Inspector and the page's data attributes.

import {
  controlUi,
  permissionsFor,
  presenceEntries,
  presenceWorthShowing,
  samePermissions,
  type ControlUi,
  type Permissions,
} from "../access";
import type { PresenceViewer, Role } from "../api/types";
import type { ChatPanel } from "../panels/chat";
import { OWNER_ACCESS, type ChatAccess } from "../panels/chat/access";
import type { ToolInspector } from "../panels/inspector";
import type { LiveView } from "../panels/liveview";
import type { TabBar } from "../panels/tabs";
import type { ConversationView } from "../state";

export interface AccessTargets {
  el: HTMLElement;
  chat: ChatPanel;
  live: LiveView;
  tabBar: TabBar;
  inspector: ToolInspector;
  /** The access was removed while the conversation was open. */
  onRevoked: () => void;
}

export class AccessRenderer {
  /** What the open conversation's reader may do (the owner's everything on the home page). */
  permissions: Permissions = permissionsFor("owner");
  private shownAccess: ChatAccess = OWNER_ACCESS;
  private shownControl: ControlUi | null = null;
  private shownPresence: readonly PresenceViewer[] | null = null;
  private shownRevoked = false;

  constructor(private readonly targets: AccessTargets) {}

  render(view: ConversationView, role: Role | null, me: string | null): void {
    const { el, chat, live, tabBar, inspector } = this.targets;
    const permissions = permissionsFor(role);
    if (!samePermissions(permissions, this.permissions)) {
      this.permissions = permissions;
      tabBar.setPermissions(permissions);
      inspector.setPermissions(permissions);
      el.dataset.canConfirm = String(permissions.confirm);
      el.dataset.canShareTabs = String(permissions.shareTabs);
    }
    el.dataset.role = role ?? "";
    // Presence entries are rebuilt only when the presence changed (the list keeps its rows otherwise).
    const presence =
      view.presence === this.shownPresence ? this.shownAccess.presence : presenceEntries(view.presence, me);
    this.shownPresence = view.presence;
    const access: ChatAccess = {
      role,
      permissions,
      owner: view.conversation?.owner ?? null,
      presence,
      showPresence: presenceWorthShowing(view.presence, me, role),
      revoked: view.revoked,
    };
    this.shownAccess = access;
    chat.setAccess(access);
    const ui = controlUi(role, view.control, me);
    if (!this.shownControl || JSON.stringify(ui) !== JSON.stringify(this.shownControl)) {
      this.shownControl = ui;
      live.setControl(ui);
    }
    if (view.revoked && !this.shownRevoked) {
      this.shownRevoked = true;
      live.setEnabled(false);
      live.setEmptyMessage("Your access to this conversation was removed.");
      tabBar.setEnabled(false);
      this.targets.onRevoked();
    }
  }

  /** No conversation open (home, settings): the owner's everything, as for one's own conversations. */
  reset(): void {
    const { el, tabBar, inspector } = this.targets;
    this.permissions = permissionsFor("owner");
    tabBar.setPermissions(this.permissions);
    inspector.setPermissions(this.permissions);
    el.dataset.canConfirm = "true";
    el.dataset.canShareTabs = "true";
    el.dataset.role = "";
    this.shownAccess = OWNER_ACCESS;
    this.shownPresence = null;
    this.shownControl = null;
    this.shownRevoked = false;
  }
}
