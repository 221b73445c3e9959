// Sidebar: the user's conversations and those shared with them (newest activity first; a shared one says
// by whom), "New conversation", who is signed in.

import { setSignedInUser } from "../people";
import { ROLE_LABEL, sharedByLabel } from "../access";
import type { Conversation, Id } from "../api/types";
import { h, icon, ICONS, KeyedList, present, setAttr, setText, type Component } from "../dom";
import { RUN_STATUS_LABEL, relativeTime } from "../format";
import type { AppState } from "../state";
import { brandMark } from "./brand";
import { personAvatar, setPersonAvatar } from "./person";
import { themeSwitch } from "../theme";

export interface ConversationsPanelOptions {
  onNew: () => Promise<void>;
  onLogout: () => Promise<void>;
}

interface Row {
  conversation: Conversation;
  active: boolean;
}

function conversationTitle(c: Conversation): string {
  return c.title.trim() || "New conversation";
}

function createItem(row: Row): Component<Row> {
  const title = h("span", { class: "conv-title" });
  const dot = h("span", { class: "status-dot" });
  const status = h("span", { class: "conv-status" });
  const when = h("span", { class: "conv-time" });
  const sharedBy = h("span", { class: "conv-shared", "data-testid": "shared-by" });
  const head = h("span", { class: "conv-head" }, title);
  const el = h(
    "a",
    { class: "conv-item", "data-testid": "conversation-item", "data-link": true },
    head,
    h("span", { class: "conv-meta" }, dot, status, when),
  );
  const update = ({ conversation: c, active }: Row): void => {
    setAttr(el, "href", `/c/${c.id}`);
    setAttr(el, "data-id", String(c.id));
    setAttr(el, "data-status", c.last_run_status ?? "none");
    setAttr(el, "aria-current", active ? "page" : null);
    el.classList.toggle("active", active);
    el.classList.toggle("untitled", !c.title.trim());
    setText(title, conversationTitle(c));
    setAttr(el, "title", conversationTitle(c));
    dot.className = `status-dot status-${c.last_run_status ?? "none"}`;
    setText(status, c.last_run_status ? RUN_STATUS_LABEL[c.last_run_status] : "No runs yet");
    setText(when, relativeTime(c.updated_at));
    const by = sharedByLabel(c);
    setAttr(el, "data-shared", by ? "true" : "false");
    setAttr(el, "data-role", c.role ?? null);
    el.classList.toggle("shared", !!by);
    present(head, sharedBy, !!by);
    setText(sharedBy, by);
    setAttr(sharedBy, "title", by && c.role ? `${ROLE_LABEL[c.role]}: ${by}` : null);
  };
  update(row);
  return { el, update };
}

export class ConversationsPanel {
  readonly el: HTMLElement;
  private readonly list: KeyedList<Row>;
  private readonly listEl: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly userName: HTMLElement;
  private readonly avatar: HTMLElement;
  private readonly newButton: HTMLButtonElement;
  private state: AppState | null = null;
  private readonly clock: number;

  constructor(private readonly options: ConversationsPanelOptions) {
    this.newButton = h(
      "button",
      {
        class: "btn btn-primary btn-block",
        type: "button",
        "data-testid": "new-conversation",
        onclick: () => this.create(),
      },
      icon(ICONS.plus),
      h("span", null, "New conversation"),
    );
    this.listEl = h("nav", { class: "conv-list", "data-testid": "conversation-list", "aria-label": "Conversations" });
    this.empty = h(
      "p",
      { class: "conv-empty" },
      "No conversations yet. Press New conversation and tell the agent what to do: it gets a browser of its own.",
    );
    this.list = new KeyedList(this.listEl, (r) => String(r.conversation.id), createItem);
    this.userName = h("span", { class: "user-name", "data-testid": "current-user" });
    this.avatar = personAvatar(null, "avatar");
    const logout = h(
      "button",
      {
        class: "btn btn-ghost btn-icon",
        type: "button",
        "data-testid": "logout",
        title: "Sign out",
        "aria-label": "Sign out",
        onclick: async () => {
          logout.disabled = true;
          try {
            await this.options.onLogout();
          } finally {
            logout.disabled = false;
          }
        },
      },
      icon(ICONS.logout),
    );
    this.el = h(
      "aside",
      { class: "sidebar", "aria-label": "Conversations" },
      h(
        "div",
        { class: "sidebar-head" },
        h("a", { class: "brand", href: "/", "data-link": true }, brandMark(26), h("span", null, "Hive")),
        themeSwitch(),
      ),
      h("div", { class: "sidebar-action" }, this.newButton),
      h("div", { class: "sidebar-section-label" }, "Conversations"),
      h("div", { class: "sidebar-scroll" }, this.listEl, this.empty),
      h(
        "footer",
        { class: "sidebar-foot" },
        this.avatar,
        h("div", { class: "user-block" }, this.userName, h("span", { class: "user-sub" }, "Signed in")),
        logout,
      ),
    );
    // Keeps "5 min ago" honest.
    this.clock = window.setInterval(() => this.state && this.update(this.state), 60_000);
  }

  update(state: AppState): void {
    this.state = state;
    const name = state.user?.username ?? "";
    setText(this.userName, name);
    setSignedInUser(name);
    setPersonAvatar(this.avatar, name || null);
    const activeId: Id | null = state.activeConversationId;
    this.list.update(state.conversations.map((c) => ({ conversation: c, active: c.id === activeId })));
    this.empty.hidden = !state.conversationsLoaded || state.conversations.length > 0;
  }

  destroy(): void {
    window.clearInterval(this.clock);
  }

  private async create(): Promise<void> {
    if (this.newButton.disabled) return;
    this.newButton.disabled = true;
    try {
      await this.options.onNew();
    } finally {
      this.newButton.disabled = false;
    }
  }
}
