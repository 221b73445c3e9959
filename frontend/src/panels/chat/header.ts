// The chat's header: the conversation's title (click to rename), the reader's role, the connection, the
// latest run's status, and the Share, Rename and Delete buttons that the reader's role allows.

import { ROLE_LABEL as ACCESS_LABEL, type Permissions } from "../../access";
import type { SocketStatus } from "../../api/socket";
import type { Role, Run } from "../../api/types";
import { h, icon, iconButton, ICONS, setAttr, setText } from "../../dom";
import { errorMessages } from "../../errors";
import { latestRun } from "../../reducer";
import { confirmAction } from "../dialogs";
import type { ConversationView } from "../../state";

const CONNECTION_LABEL: Record<SocketStatus, string> = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  closed: "Offline",
  denied: "No access",
};

/** The badge of the latest run: its status, and while it waits for a browser, its place in line. */
export function runStatusText(run: Run | null | undefined): string {
  if (!run) return "";
  if (run.status === "waiting") return "Waiting for you";
  if (run.status === "queued" && run.queue_position && run.queue_position > 1) {
    return `queued · ${String(run.queue_position - 1)} ahead`;
  }
  return run.status;
}

/** What the header shows of the reader's place in the conversation. */
export interface HeaderAccess {
  role: Role | null;
  permissions: Permissions;
  owner: string | null;
  revoked: boolean;
}

export interface ChatHeaderOptions {
  onToggleSidebar: () => void;
  onShare?: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
  /** A rename or delete the server refused. */
  onError: (messages: string[]) => void;
}

export class ChatHeader {
  readonly el: HTMLElement;
  private readonly title = h("h1", { class: "chat-title", title: "Rename", tabindex: "0" });
  private readonly titleInput = h("input", {
    class: "chat-title-input",
    type: "text",
    maxlength: "200",
    hidden: true,
    "aria-label": "Conversation title",
  });
  private readonly connection = h("span", { class: "conn", "data-testid": "connection-status" });
  private readonly runStatus = h("span", { class: "badge run-status", "data-testid": "run-status", hidden: true });
  private readonly myRole = h("span", { class: "role-badge", "data-testid": "my-role", hidden: true });
  private readonly renameButton = iconButton(ICONS.pencil, "Rename", () => this.startRename());
  private readonly deleteButton = iconButton(ICONS.trash, "Delete conversation", () => this.confirmDelete());
  private readonly shareButton: HTMLButtonElement;
  private readonly actions: HTMLElement;
  private view: ConversationView | null = null;
  private mayRename = true;

  constructor(private readonly options: ChatHeaderOptions) {
    this.shareButton = h(
      "button",
      {
        class: "btn btn-secondary btn-sm share-button",
        type: "button",
        "data-testid": "share-button",
        title: "Share this conversation with teammates",
        onclick: () => this.options.onShare?.(),
      },
      icon(ICONS.users, 14),
      h("span", null, "Share"),
    );
    this.actions = h(
      "div",
      { class: "chat-head-actions" },
      this.runStatus,
      this.shareButton,
      this.renameButton,
      this.deleteButton,
    );
    this.title.addEventListener("click", () => this.startRename());
    this.title.addEventListener("keydown", (e) => e.key === "Enter" && this.startRename());
    this.titleInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") void this.finishRename(true);
      if (e.key === "Escape") void this.finishRename(false);
    });
    this.titleInput.addEventListener("blur", () => void this.finishRename(true));
    this.el = h(
      "header",
      { class: "chat-head" },
      iconButton(ICONS.menu, "Conversations", () => this.options.onToggleSidebar(), "menu-button"),
      h("div", { class: "chat-title-wrap" }, this.title, this.titleInput, this.myRole, this.connection),
      this.actions,
      h(
        "a",
        {
          class: "btn btn-ghost btn-icon",
          href: "/settings",
          "data-link": true,
          "data-testid": "open-settings",
          title: "Settings: models and API token",
          "aria-label": "Settings",
        },
        icon(ICONS.settings),
      ),
    );
  }

  /** The home page: a new conversation, nothing to act on yet. */
  showHome(): void {
    this.view = null;
    setText(this.title, "New conversation");
    this.title.classList.add("muted");
    this.connection.hidden = true;
    this.actions.hidden = true;
    this.runStatus.hidden = true;
  }

  /** Title, connection and the latest run's status; returns the latest run. */
  render(view: ConversationView): Run | null {
    this.view = view;
    const title = view.conversation?.title.trim() || "New conversation";
    setText(this.title, title);
    this.title.classList.toggle("muted", !view.conversation?.title.trim());
    const latest = latestRun(view.runs);
    document.title = `${latest?.status === "waiting" ? "Waiting for you · " : ""}${title} · Hive`;

    this.connection.className = `conn conn-${view.connection}`;
    setText(this.connection, CONNECTION_LABEL[view.connection]);

    this.runStatus.hidden = !latest;
    // The raw status, except that a run waiting for the user says so.
    setText(this.runStatus, runStatusText(latest));
    this.runStatus.className = `badge run-status status-${latest?.status ?? "none"}`;
    return latest;
  }

  /** The buttons and the role badge that the reader's role allows. */
  renderAccess(view: ConversationView | null, access: HeaderAccess): void {
    const { permissions, role, revoked, owner } = access;
    const open = !!view && !view.loadError;
    this.mayRename = permissions.settings && !revoked;
    // A conversation that can't be opened offers nothing to do but leave.
    this.actions.hidden = !!view?.loadError;
    this.connection.hidden = !!view?.loadError || !view;
    this.renameButton.hidden = !permissions.settings || revoked;
    this.deleteButton.hidden = !permissions.settings || revoked;
    this.shareButton.hidden = !open || !permissions.share || revoked;
    this.title.tabIndex = permissions.settings ? 0 : -1;
    setAttr(this.title, "title", permissions.settings ? "Rename" : null);
    this.title.classList.toggle("renamable", permissions.settings);

    // How the conversation is shared with the reader (their own needs no badge: the Share button says it).
    const showRole = open && !!role && role !== "owner" && !revoked;
    this.myRole.hidden = !showRole;
    if (showRole) {
      setText(this.myRole, ACCESS_LABEL[role]);
      setAttr(this.myRole, "data-role", role);
      this.myRole.className = `role-badge role-${role}`;
      setAttr(
        this.myRole,
        "title",
        `Shared with you${owner ? ` by ${owner}` : ""} as a ${role}` +
          (role === "viewer" ? ": you can watch, not act" : ": you can send messages and take over the browser"),
      );
    }
  }

  private startRename(): void {
    if (!this.view || !this.mayRename) return;
    this.titleInput.value = this.view.conversation?.title ?? "";
    this.title.hidden = true;
    this.titleInput.hidden = false;
    this.titleInput.focus();
    this.titleInput.select();
  }

  private async finishRename(save: boolean): Promise<void> {
    if (this.titleInput.hidden) return;
    this.titleInput.hidden = true;
    this.title.hidden = false;
    const title = this.titleInput.value.trim();
    if (!save || !title || title === this.view?.conversation?.title) return;
    try {
      await this.options.onRename(title);
    } catch (err) {
      this.options.onError(errorMessages(err));
    }
  }

  private confirmDelete(): void {
    const title = this.view?.conversation?.title.trim() || "New conversation";
    void confirmAction({
      title: "Delete this conversation?",
      subtitle: title,
      text: "Its messages, runs, steps and screenshots are deleted, and everyone it is shared with loses it.",
      submitLabel: "Delete conversation",
      danger: true,
      testid: "delete-dialog",
      confirm: () => this.options.onDelete(),
    });
  }
}
