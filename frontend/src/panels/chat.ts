// Chat: the conversation's messages with each run's step timeline between them, the streamed reply,
// the latest run's status and Stop button, and the composer. In a shared conversation the header says the
// reader's role and who is watching; a viewer gets no composer, and a reader whose access was removed is
// told so.

import { renderMarkdown } from "../markdown";
import { ROLE_LABEL as ACCESS_LABEL, permissionsFor, type Permissions, type PresenceEntry } from "../access";
import { ApiError } from "../api/client";
import type { Id, Message, Role, Run } from "../api/types";
import type { SocketStatus } from "../api/socket";
import {
  h,
  icon,
  iconButton,
  ICONS,
  KeyedList,
  replaceChildren,
  setAttr,
  setText,
  type Component,
} from "../dom";
import { formatBytes, hostOf } from "../format";
import { buildTimeline, isActiveStatus, latestRun, type TimelineItem } from "../reducer";
import { NoticeError } from "../session";
import { shareState } from "../sharing";
import type { ConversationView, FileChip } from "../state";
import { brandMark } from "./brand";
import { createRunBlock, type RunActions } from "./steps";

export interface ChatPanelOptions {
  /** Sends a message in the open conversation (or starts one from the home page). Throws ApiError. */
  onSend: (content: string) => Promise<void>;
  onAbort: (runId: Id) => Promise<void>;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
  onToggleSidebar: () => void;
  /** Uploads a file to the open conversation (or starts one from the home page); errors go to the notice. */
  onUpload: (file: File) => Promise<void>;
  /** Hides an uploaded file's chip. */
  onDismissFile: (key: string) => void;
  /** Answering confirmations and opening a run's model calls, from the run blocks. */
  runActions?: RunActions;
  /** The conversation's settings bar, shown under the header. */
  settingsBar?: HTMLElement;
  /** Opens the share dialog (the owner's). */
  onShare?: () => void;
}

/** The reader's place in the open conversation (App computes it from the session's view). */
export interface ChatAccess {
  role: Role | null;
  permissions: Permissions;
  /** The owner's username, for "shared by ada". */
  owner: string | null;
  presence: PresenceEntry[];
  showPresence: boolean;
  revoked: boolean;
}

/** The home page and one's own conversations: everything allowed, nobody else around. */
export const OWNER_ACCESS: ChatAccess = {
  role: "owner",
  permissions: permissionsFor("owner"),
  owner: null,
  presence: [],
  showPresence: false,
  revoked: false,
};

export const REVOKED_TEXT = "Your access to this conversation was removed";

const SUGGESTIONS = [
  "Open the demo flight search and find the cheapest flight from Paris to Rome",
  "Read the demo article and summarise it in three bullet points",
  "Find a pair of running shoes under $100 in the demo shop",
];

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

// --- Timeline components ---

const ROLE_LABEL: Record<Message["role"], string> = {
  user: "You",
  assistant: "Hive agent",
  tool: "Tool",
  system: "System",
};
const ROLE_INITIAL: Record<Message["role"], string | null> = { user: "You", assistant: null, tool: "⚙", system: "i" };

/** The signed-in user's name, so a teammate's messages are labelled with theirs instead of "You". */
let currentUsername = "";
export function setCurrentUsername(name: string): void {
  currentUsername = name;
}

export function messageLabel(role: Message["role"], author: string | null | undefined, me: string): string {
  if (role === "user" && author && author !== me) return author;
  return ROLE_LABEL[role];
}

interface BubbleData {
  author?: string | null;
  role: Message["role"];
  content: string;
  streaming: boolean;
  interrupted: boolean;
  id: string;
}

function createBubble(initial: BubbleData): Component<BubbleData> {
  const avatar = h("div", { class: "msg-avatar", "aria-hidden": "true" });
  const content = h("div", { class: "msg-content" });
  const label = h("div", { class: "msg-label" });
  const el = h(
    "div",
    { class: "msg", "data-testid": "message" },
    avatar,
    h("div", { class: "msg-body" }, label, content),
  );
  let shown: string | null = null;
  const update = (data: BubbleData): void => {
    el.className = `msg msg-${data.role}`;
    el.classList.toggle("streaming", data.streaming);
    el.classList.toggle("interrupted", data.interrupted);
    setAttr(el, "data-role", data.role);
    setAttr(el, "data-message-id", data.id);
    setAttr(el, "data-streaming", data.streaming ? "true" : null);
    // Avatar and label are drawn by CSS from attributes so the bubble's text is the message alone.
    if (data.role === "assistant" && !avatar.firstChild) avatar.appendChild(brandMark(18));
    setAttr(avatar, "data-initial", ROLE_INITIAL[data.role]);
    setAttr(label, "data-label", messageLabel(data.role, data.author, currentUsername));
    setAttr(el, "data-author", data.author ?? null);
    const text = data.content + (data.interrupted ? "\n\n(Reply interrupted.)" : "");
    if (text !== shown) {
      shown = text;
      // Tool output carries page content: shown as text, never parsed. Replies and messages are Markdown.
      if (data.role === "tool") replaceChildren(content, h("pre", { class: "tool-output" }, text));
      else renderMarkdown(content, text);
    }
  };
  update(initial);
  return { el, update };
}

function bubbleData(item: Exclude<TimelineItem, { kind: "run" }>): BubbleData {
  if (item.kind === "message") {
    const m = item.message;
    return {
      role: m.role,
      author: m.author ?? null,
      content: m.content,
      streaming: false,
      interrupted: false,
      id: String(m.id),
    };
  }
  return { role: "assistant", content: item.text, streaming: item.active, interrupted: !item.active, id: item.key };
}

function createTimelineItem(initial: TimelineItem, actions?: RunActions): Component<TimelineItem> {
  if (initial.kind === "run") {
    const block = createRunBlock(initial, actions);
    return {
      el: block.el,
      update: (item) => item.kind === "run" && block.update(item),
      destroy: () => block.destroy?.(),
    };
  }
  const bubble = createBubble(bubbleData(initial));
  return {
    el: bubble.el,
    update: (item) => {
      if (item.kind !== "run") bubble.update(bubbleData(item));
    },
  };
}

// --- Uploaded files ---

/** What the composer inserts to point the agent at an uploaded file (its `upload_file` takes the id). */
export function fileMention(file: { id: Id; name: string }): string {
  return `the file "${file.name}" (file_id ${file.id})`;
}

function createFileChip(
  initial: FileChip,
  onMention: (file: FileChip) => void,
  onDismiss: (key: string) => void,
): Component<FileChip> {
  let current = initial;
  const name = h("button", {
    class: "file-chip-name",
    type: "button",
    onclick: () => current.id !== null && onMention(current),
  });
  const size = h("span", { class: "file-chip-size" });
  const spinner = h("span", { class: "spinner", "aria-hidden": "true" });
  const close = h(
    "button",
    {
      class: "file-chip-close",
      type: "button",
      "aria-label": `Hide ${initial.name}`,
      title: "Hide (the agent can still use the file)",
      onclick: () => onDismiss(current.key),
    },
    icon(ICONS.close, 12),
  );
  const el = h("div", { class: "file-chip" }, icon(ICONS.file, 14), name, size, spinner, close);
  const update = (file: FileChip): void => {
    current = file;
    const uploading = file.id === null;
    el.classList.toggle("uploading", uploading);
    // Only a stored file counts as an uploaded-file.
    setAttr(el, "data-testid", uploading ? "uploading-file" : "uploaded-file");
    setAttr(el, "data-file-id", uploading ? null : String(file.id));
    setText(name, file.name);
    setAttr(name, "title", uploading ? "Uploading…" : `File id ${file.id}. Click to mention it in your message.`);
    name.disabled = uploading;
    setText(size, uploading ? "Uploading…" : formatBytes(file.size));
    spinner.hidden = !uploading;
    close.hidden = uploading;
  };
  update(initial);
  return { el, update };
}

// --- Who is watching ---

function createPresenceItem(initial: PresenceEntry): Component<PresenceEntry> {
  const avatar = h("span", { class: "presence-avatar", "aria-hidden": "true" });
  const name = h("span", { class: "presence-name" });
  const role = h("span", { class: "presence-role", "data-testid": "presence-role" });
  const el = h("li", { class: "presence-item", "data-testid": "presence-item" }, avatar, name, role);
  const update = (entry: PresenceEntry): void => {
    setAttr(el, "data-username", entry.username);
    setAttr(el, "data-role", entry.role);
    setAttr(el, "data-me", entry.me ? "true" : null);
    el.className = `presence-item presence-${entry.role}${entry.me ? " me" : ""}`;
    setText(avatar, entry.username.charAt(0).toUpperCase());
    setText(name, entry.me ? `${entry.username} (you)` : entry.username);
    setText(role, ACCESS_LABEL[entry.role]);
    const since = entry.since ? new Date(entry.since) : null;
    const when =
      since && !Number.isNaN(since.getTime())
        ? ` · here since ${since.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
        : "";
    setAttr(el, "title", `${entry.username} · ${ACCESS_LABEL[entry.role].toLowerCase()}${when}`);
  };
  update(initial);
  return { el, update };
}

// --- The panel ---

function timelineChanged(a: ConversationView, b: ConversationView): boolean {
  return (
    a.messages !== b.messages ||
    a.runs !== b.runs ||
    a.steps !== b.steps ||
    a.confirmations !== b.confirmations ||
    a.plans !== b.plans ||
    a.streaming !== b.streaming ||
    a.loaded !== b.loaded ||
    a.loadError !== b.loadError
  );
}

function emptyState(title: string, text: string): HTMLElement {
  return h("div", { class: "empty-state" }, h("h2", null, title), h("p", null, text));
}

export class ChatPanel {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly titleInput: HTMLInputElement;
  private readonly connection: HTMLElement;
  private readonly runStatus: HTMLElement;
  private readonly headerActions: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly timelineEl: HTMLElement;
  private readonly timeline: KeyedList<TimelineItem>;
  private readonly placeholder: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly error: HTMLElement;
  private readonly composer: HTMLFormElement;
  private readonly filesEl: HTMLElement;
  private readonly files: KeyedList<FileChip>;
  private readonly fileInput: HTMLInputElement;
  private readonly sharedEl: HTMLElement;
  private readonly attachButton: HTMLButtonElement;
  private readonly renameButton: HTMLButtonElement;
  private readonly deleteButton: HTMLButtonElement;
  private readonly shareButton: HTMLButtonElement;
  private readonly myRole: HTMLElement;
  private readonly presenceBar: HTMLElement;
  private readonly presenceList: KeyedList<PresenceEntry>;
  private readonly readOnlyNote: HTMLElement;
  private readonly revokedEl: HTMLElement;
  private access: ChatAccess = OWNER_ACCESS;
  private view: ConversationView | null = null;
  private sending = false;
  private stoppingRun: Id | null = null;
  private dismissedNotice: string | null = null;

  constructor(private readonly options: ChatPanelOptions) {
    this.title = h("h1", { class: "chat-title", title: "Rename", tabindex: "0" });
    this.titleInput = h("input", {
      class: "chat-title-input",
      type: "text",
      maxlength: "200",
      hidden: true,
      "aria-label": "Conversation title",
    });
    this.connection = h("span", { class: "conn", "data-testid": "connection-status" });
    this.runStatus = h("span", { class: "badge run-status", "data-testid": "run-status", hidden: true });
    this.myRole = h("span", { class: "role-badge", "data-testid": "my-role", hidden: true });
    this.renameButton = iconButton(ICONS.pencil, "Rename", () => this.startRename());
    this.deleteButton = iconButton(ICONS.trash, "Delete conversation", () => this.confirmDelete());
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
    this.headerActions = h(
      "div",
      { class: "chat-head-actions" },
      this.runStatus,
      this.shareButton,
      this.renameButton,
      this.deleteButton,
    );
    this.presenceList = new KeyedList(
      h("ul", { class: "presence-list", "data-testid": "presence-list", "aria-label": "Watching now" }),
      (entry) => entry.username,
      createPresenceItem,
    );
    this.presenceBar = h(
      "div",
      { class: "presence-bar", hidden: true },
      h("span", { class: "presence-label" }, icon(ICONS.eye, 13), "Watching now"),
      this.presenceList.container,
    );
    this.readOnlyNote = h("div", { class: "readonly-note", "data-testid": "readonly-note", hidden: true });
    this.revokedEl = h(
      "div",
      { class: "access-revoked", "data-testid": "access-revoked", role: "alert", hidden: true },
      icon(ICONS.lock, 18),
      h(
        "div",
        null,
        h("strong", null, REVOKED_TEXT),
        h("p", null, "The owner stopped sharing it with you, or your link expired. Ask them to share it again."),
        h("a", { class: "btn btn-secondary btn-sm", href: "/", "data-link": true }, "Back to your conversations"),
      ),
    );
    this.title.addEventListener("click", () => this.startRename());
    this.title.addEventListener("keydown", (e) => e.key === "Enter" && this.startRename());
    this.titleInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") void this.finishRename(true);
      if (e.key === "Escape") void this.finishRename(false);
    });
    this.titleInput.addEventListener("blur", () => void this.finishRename(true));

    this.timelineEl = h("div", { class: "timeline" });
    this.timeline = new KeyedList(
      this.timelineEl,
      (item) => item.key,
      (item) => createTimelineItem(item, this.options.runActions),
    );
    this.placeholder = h("div", { class: "chat-placeholder" });
    this.scroller = h("div", { class: "chat-scroll" }, this.placeholder, this.timelineEl);
    this.notice = h("div", { class: "notice", "data-testid": "notice", role: "status", hidden: true });

    this.input = h("textarea", {
      class: "composer-input",
      "data-testid": "chat-input",
      rows: "1",
      placeholder: "Ask your agent to do something on the web…",
      "aria-label": "Message",
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void this.submit();
      }
    });
    this.input.addEventListener("input", () => this.autosize());
    this.sendButton = h(
      "button",
      { class: "btn btn-primary", type: "submit", "data-testid": "send-button" },
      icon(ICONS.send),
      h("span", null, "Send"),
    );
    this.stopButton = h(
      "button",
      {
        class: "btn btn-danger",
        type: "button",
        "data-testid": "stop-button",
        hidden: true,
        onclick: () => this.stop(),
      },
      icon(ICONS.stop),
      h("span", null, "Stop"),
    );
    this.error = h("div", { class: "form-error", "data-testid": "form-error", role: "alert", hidden: true });
    this.filesEl = h("div", { class: "composer-files", "aria-label": "Uploaded files", hidden: true });
    this.files = new KeyedList(
      this.filesEl,
      (f) => f.key,
      (f) =>
        createFileChip(
          f,
          (file) => this.mention(file),
          (key) => this.options.onDismissFile(key),
        ),
    );
    this.sharedEl = h("div", { class: "composer-shared", "data-testid": "composer-shared-tabs", hidden: true });
    this.fileInput = h("input", {
      type: "file",
      multiple: true,
      hidden: true,
      tabindex: "-1",
      "data-testid": "attach-file-input",
    });
    this.fileInput.addEventListener("change", () => {
      const chosen = [...(this.fileInput.files ?? [])];
      this.fileInput.value = ""; // the same file can be chosen again
      void this.uploadAll(chosen);
    });
    this.attachButton = h(
      "button",
      {
        class: "btn btn-ghost btn-icon attach-button",
        type: "button",
        "data-testid": "attach-file",
        title: "Attach a file for the agent to upload",
        "aria-label": "Attach a file",
        onclick: () => this.access.permissions.upload && this.fileInput.click(),
      },
      icon(ICONS.paperclip),
    );
    this.composer = h(
      "form",
      {
        class: "composer",
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.submit();
        },
      },
      this.error,
      h(
        "div",
        {
          class: "composer-box",
          ondragover: (e: DragEvent) => {
            if (!e.dataTransfer?.types.includes("Files") || !this.access.permissions.upload) return;
            e.preventDefault();
            (e.currentTarget as HTMLElement).classList.add("dropping");
          },
          ondragleave: (e: DragEvent) => (e.currentTarget as HTMLElement).classList.remove("dropping"),
          ondrop: (e: DragEvent) => {
            (e.currentTarget as HTMLElement).classList.remove("dropping");
            const dropped = [...(e.dataTransfer?.files ?? [])];
            if (!dropped.length || !this.access.permissions.upload) return;
            e.preventDefault();
            void this.uploadAll(dropped);
          },
        },
        this.sharedEl,
        this.filesEl,
        this.input,
        h(
          "div",
          { class: "composer-bar" },
          this.attachButton,
          this.fileInput,
          h(
            "span",
            { class: "composer-hint" },
            h("kbd", null, "Enter"),
            " to send · ",
            h("kbd", null, "Shift"),
            "+",
            h("kbd", null, "Enter"),
            " for a new line",
          ),
          this.stopButton,
          this.sendButton,
        ),
      ),
    );

    this.el = h(
      "main",
      { class: "chat" },
      h(
        "header",
        { class: "chat-head" },
        iconButton(ICONS.menu, "Conversations", () => this.options.onToggleSidebar(), "menu-button"),
        h("div", { class: "chat-title-wrap" }, this.title, this.titleInput, this.myRole, this.connection),
        this.headerActions,
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
      ),
      this.presenceBar,
      this.revokedEl,
      this.options.settingsBar ?? null,
      this.notice,
      this.scroller,
      this.readOnlyNote,
      this.composer,
    );
    this.showHome();
  }

  /** The home page: no conversation open; sending starts one. */
  showHome(): void {
    this.view = null;
    this.access = OWNER_ACCESS;
    this.presenceList.clear();
    this.renderAccess();
    this.composer.hidden = false;
    this.timeline.clear();
    setText(this.title, "New conversation");
    this.title.classList.add("muted");
    this.connection.hidden = true;
    this.headerActions.hidden = true;
    this.runStatus.hidden = true;
    this.stopButton.hidden = true;
    this.notice.hidden = true;
    this.files.clear();
    this.filesEl.hidden = true;
    this.renderShared(null);
    this.setError([]);
    replaceChildren(
      this.placeholder,
      h(
        "div",
        { class: "empty-state" },
        h("div", { class: "empty-mark" }, brandMark(44)),
        h("h2", null, "What should your agent do?"),
        h(
          "p",
          null,
          "Describe a task. Hive's agent works in its own browser — watch it live on the right, step by step, " +
            "and take the controls whenever you like.",
        ),
        h(
          "div",
          { class: "suggestions" },
          ...SUGGESTIONS.map((s) =>
            h("button", { class: "suggestion", type: "button", onclick: () => this.prefill(s) }, s),
          ),
        ),
      ),
    );
    this.placeholder.hidden = false;
    document.title = "Hive";
  }

  focusInput(): void {
    this.input.focus();
  }

  update(view: ConversationView): void {
    const switched = this.view?.id !== view.id;
    const previous = switched ? null : this.view;
    this.view = view;
    if (switched) {
      this.setError([]);
      this.stoppingRun = null;
      this.dismissedNotice = null;
    }
    this.renderAccess();
    this.renderHeader(view);
    // A new notice shows even when an identical one was dismissed before.
    if (previous && previous.notice !== view.notice) this.dismissedNotice = null;
    this.renderNotice(view.notice);
    if (previous?.files !== view.files) {
      this.files.update(view.files);
      this.filesEl.hidden = view.files.length === 0;
    }
    if (!previous || timelineChanged(previous, view)) this.renderTimeline(view, switched);
    if (
      previous?.tabs !== view.tabs ||
      previous.sharedTabIds !== view.sharedTabIds ||
      previous.readingTabs !== view.readingTabs
    ) {
      this.renderShared(view);
    }
  }

  /** The reader's role, who is watching, and a removed access (App calls it on every change of them). */
  setAccess(access: ChatAccess): void {
    const previous = this.access;
    this.access = access;
    if (previous.presence !== access.presence || previous.showPresence !== access.showPresence) {
      this.presenceList.update(access.showPresence && !access.revoked ? access.presence : []);
    }
    this.renderAccess();
    if (this.view) this.renderHeader(this.view);
  }

  /** What the reader's role allows, shown: the composer, the header's buttons, the role badge, the notes. */
  private renderAccess(): void {
    const view = this.view;
    const { permissions, role, revoked, owner } = this.access;
    const open = !!view && !view.loadError;
    // A conversation that can't be opened offers nothing to do but leave.
    this.headerActions.hidden = !!view?.loadError;
    this.connection.hidden = !!view?.loadError || !view;
    this.composer.hidden = !!view?.loadError || revoked || !permissions.send;
    this.attachButton.hidden = !permissions.upload;
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
    this.presenceBar.hidden = !open || revoked || !this.access.showPresence || this.access.presence.length === 0;
    this.revokedEl.hidden = !revoked;

    // A watcher is told why there is no composer (a reader whose role is not known yet is not: it comes soon).
    const watching = open && !revoked && role === "viewer";
    this.readOnlyNote.hidden = !watching;
    if (watching) {
      setText(
        this.readOnlyNote,
        `You are watching${owner ? ` ${owner}'s conversation` : ""} as a viewer: ask ${owner ?? "the owner"} to make you a controller to send messages or take over the browser.`,
      );
    }
  }

  /** Over the composer: the tabs that go with the next message (toggled in the tab bar). */
  private renderShared(view: ConversationView | null): void {
    const tabs = view
      ? view.tabs
          .map((tab) => ({ tab, state: shareState(tab, view.sharedTabIds, view.readingTabs) }))
          .filter((t) => t.state === "shared" || t.state === "reading")
      : [];
    this.sharedEl.hidden = tabs.length === 0;
    if (!tabs.length) {
      this.sharedEl.replaceChildren();
      return;
    }
    replaceChildren(
      this.sharedEl,
      icon(ICONS.share, 13),
      h("span", { class: "composer-shared-label" }, tabs.length === 1 ? "Sharing 1 tab:" : `Sharing ${tabs.length} tabs:`),
      ...tabs.map(({ tab, state }) => {
        // A first read still going: the tab goes with the messages sent once it is read.
        const pending = state === "reading" && !tab.context;
        return h(
          "span",
          {
            class: `composer-shared-tab${pending ? " pending" : ""}`,
            title: pending ? "Still being read: it goes with messages sent once it is read" : tab.url,
          },
          tab.title || hostOf(tab.url) || "New tab",
          pending ? " (reading…)" : "",
        );
      }),
    );
  }

  private renderHeader(view: ConversationView): void {
    const title = view.conversation?.title.trim() || "New conversation";
    setText(this.title, title);
    this.title.classList.toggle("muted", !view.conversation?.title.trim());
    const waiting = latestRun(view.runs)?.status === "waiting";
    document.title = `${waiting ? "Waiting for you · " : ""}${title} · Hive`;

    this.connection.className = `conn conn-${view.connection}`;
    setText(this.connection, CONNECTION_LABEL[view.connection]);

    const latest = latestRun(view.runs);
    this.runStatus.hidden = !latest;
    // The raw status, except that a run waiting for the user says so.
    setText(this.runStatus, runStatusText(latest));
    this.runStatus.className = `badge run-status status-${latest?.status ?? "none"}`;
    const active = !!latest && isActiveStatus(latest.status);
    this.stopButton.hidden = !active || !this.access.permissions.abort || this.access.revoked;
    if (!active) this.stoppingRun = null;
    this.stopButton.disabled = active && this.stoppingRun === latest.id;
  }

  private renderNotice(notice: string | null): void {
    const show = !!notice && notice !== this.dismissedNotice;
    this.notice.hidden = !show;
    if (!show || this.notice.dataset.text === notice) return;
    this.notice.dataset.text = notice;
    const dismiss = (): void => {
      this.dismissedNotice = notice;
      this.notice.hidden = true;
    };
    replaceChildren(
      this.notice,
      icon(ICONS.alert),
      h("span", null, notice),
      h("button", { class: "link-button", type: "button", onclick: dismiss }, "Dismiss"),
    );
  }

  private renderTimeline(view: ConversationView, switched: boolean): void {
    const stick = switched || this.nearBottom();
    const items = buildTimeline(view);
    this.timeline.update(items);
    let placeholder: HTMLElement | null = null;
    if (view.loadError) {
      placeholder = emptyState("Can't open this conversation", view.loadError);
    } else if (!view.loaded && items.length === 0) {
      placeholder = h("div", { class: "chat-loading" }, h("span", { class: "spinner" }), "Loading conversation…");
    } else if (items.length === 0) {
      placeholder = emptyState(
        "Start with a task",
        "Tell the agent what to do. Its steps and a live view of its browser appear as it works.",
      );
      placeholder.classList.add("compact");
    }
    if (placeholder) replaceChildren(this.placeholder, placeholder);
    this.placeholder.hidden = !placeholder;
    if (stick) this.scrollToBottom();
  }

  private nearBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < 120;
  }

  private scrollToBottom(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private async uploadAll(files: File[]): Promise<void> {
    this.setError([]);
    try {
      for (const file of files) await this.options.onUpload(file);
    } catch (err) {
      // Only starting a conversation for the files can fail here; upload errors go to the notice.
      this.setError(err instanceof ApiError ? err.messages : [String(err)]);
    }
  }

  /** Puts a reference to an uploaded file into the message at the cursor. */
  private mention(file: FileChip): void {
    if (file.id === null) return;
    const text = fileMention({ id: file.id, name: file.name });
    const input = this.input;
    const start = input.selectionStart;
    const end = input.selectionEnd;
    const before = input.value.slice(0, start);
    const after = input.value.slice(end);
    const lead = before && !/\s$/.test(before) ? " " : "";
    const trail = after && !/^\s/.test(after) ? " " : "";
    input.value = before + lead + text + trail + after;
    const caret = (before + lead + text + trail).length;
    input.focus();
    input.setSelectionRange(caret, caret);
    this.autosize();
  }

  private prefill(text: string): void {
    this.input.value = text;
    this.autosize();
    this.input.focus();
  }

  private autosize(): void {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 220)}px`;
  }

  private setError(messages: string[]): void {
    replaceChildren(this.error, ...messages.map((m) => h("div", null, m)));
    this.error.hidden = messages.length === 0;
  }

  private async submit(): Promise<void> {
    const content = this.input.value.trim();
    if (!content || this.sending || !this.access.permissions.send || this.access.revoked) return;
    this.sending = true;
    this.sendButton.disabled = true;
    this.setError([]);
    try {
      await this.options.onSend(content);
      if (this.input.value.trim() === content) this.input.value = "";
      this.autosize();
      this.scrollToBottom();
    } catch (err) {
      // Already in the notice (unknown shared tabs): the message stays in the composer to send again.
      if (!(err instanceof NoticeError)) this.setError(err instanceof ApiError ? err.messages : [String(err)]);
    } finally {
      this.sending = false;
      this.sendButton.disabled = false;
      this.input.focus();
    }
  }

  private async stop(): Promise<void> {
    const run = this.view ? latestRun(this.view.runs) : null;
    if (!run) return;
    this.stoppingRun = run.id;
    this.stopButton.disabled = true;
    try {
      await this.options.onAbort(run.id);
    } catch (err) {
      this.stoppingRun = null;
      this.stopButton.disabled = false;
      this.setError(err instanceof ApiError ? err.messages : [String(err)]);
    }
  }

  private startRename(): void {
    if (!this.view || !this.access.permissions.settings || this.access.revoked) return;
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
      this.setError(err instanceof ApiError ? err.messages : [String(err)]);
    }
  }

  private async confirmDelete(): Promise<void> {
    if (!window.confirm("Delete this conversation, its runs and steps?")) return;
    try {
      await this.options.onDelete();
    } catch (err) {
      this.setError(err instanceof ApiError ? err.messages : [String(err)]);
    }
  }
}
