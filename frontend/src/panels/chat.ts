// Chat: the conversation's messages with each run's step timeline between them, the streamed reply,
// the latest run's status and Stop button, and the composer. In a shared conversation the header says the
// reader's role and who is watching; a viewer gets no composer, and a reader whose access was removed is
// told so.

import { permissionsFor, type Permissions, type PresenceEntry } from "../access";
import type { Id, Role } from "../api/types";
import { h, icon, ICONS, KeyedList, replaceChildren, setText } from "../dom";
import { errorMessages } from "../errors";
import { isActiveStatus, latestRun } from "../reducer";
import { buildTimeline, type TimelineItem } from "../timeline";
import type { ConversationView } from "../state";
import { brandMark } from "./brand";
import { Composer } from "./chat/composer";
import { ChatHeader } from "./chat/header";
import { createPresenceItem } from "./chat/presence";
import { createTimelineItem, timelineChanged } from "./chat/timeline";
import type { RunActions } from "./steps/model";

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

function emptyState(title: string, text: string): HTMLElement {
  return h("div", { class: "empty-state" }, h("h2", null, title), h("p", null, text));
}

export class ChatPanel {
  readonly el: HTMLElement;
  private readonly header: ChatHeader;
  private readonly composer: Composer;
  private readonly scroller: HTMLElement;
  private readonly timeline: KeyedList<TimelineItem>;
  private readonly placeholder = h("div", { class: "chat-placeholder" });
  private readonly notice = h("div", { class: "notice", "data-testid": "notice", role: "status", hidden: true });
  private readonly presenceBar: HTMLElement;
  private readonly presenceList: KeyedList<PresenceEntry>;
  private readonly readOnlyNote = h("div", { class: "readonly-note", "data-testid": "readonly-note", hidden: true });
  private readonly revokedEl: HTMLElement;
  private access: ChatAccess = OWNER_ACCESS;
  private view: ConversationView | null = null;
  private stoppingRun: Id | null = null;
  private dismissedNotice: string | null = null;

  constructor(private readonly options: ChatPanelOptions) {
    this.header = new ChatHeader({
      onToggleSidebar: options.onToggleSidebar,
      onShare: options.onShare,
      onRename: options.onRename,
      onDelete: options.onDelete,
      onError: (messages) => this.composer.setError(messages),
    });
    this.composer = new Composer({
      onSend: options.onSend,
      onSent: () => this.scrollToBottom(),
      onStop: () => void this.stop(),
      onUpload: options.onUpload,
      onDismissFile: options.onDismissFile,
      mayUpload: () => this.access.permissions.upload,
      maySend: () => this.access.permissions.send && !this.access.revoked,
    });
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
    const timelineEl = h("div", { class: "timeline" });
    this.timeline = new KeyedList(
      timelineEl,
      (item) => item.key,
      (item) => createTimelineItem(item, this.options.runActions),
    );
    this.scroller = h("div", { class: "chat-scroll" }, this.placeholder, timelineEl);
    this.el = h(
      "main",
      { class: "chat" },
      this.header.el,
      this.presenceBar,
      this.revokedEl,
      this.options.settingsBar ?? null,
      this.notice,
      this.scroller,
      this.readOnlyNote,
      this.composer.el,
    );
    this.showHome();
  }

  /** The home page: no conversation open; sending starts one. */
  showHome(): void {
    this.view = null;
    this.access = OWNER_ACCESS;
    this.presenceList.clear();
    this.renderAccess();
    this.composer.el.hidden = false;
    this.timeline.clear();
    this.header.showHome();
    this.composer.stopButton.hidden = true;
    this.notice.hidden = true;
    this.composer.clearFiles();
    this.composer.renderShared(null);
    this.composer.setError([]);
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
            h("button", { class: "suggestion", type: "button", onclick: () => this.composer.prefill(s) }, s),
          ),
        ),
      ),
    );
    this.placeholder.hidden = false;
    document.title = "Hive";
  }

  focusInput(): void {
    this.composer.focus();
  }

  update(view: ConversationView): void {
    const switched = this.view?.id !== view.id;
    const previous = switched ? null : this.view;
    this.view = view;
    if (switched) {
      this.composer.setError([]);
      this.stoppingRun = null;
      this.dismissedNotice = null;
    }
    this.renderAccess();
    this.renderHeader(view);
    // A new notice shows even when an identical one was dismissed before.
    if (previous && previous.notice !== view.notice) this.dismissedNotice = null;
    this.renderNotice(view.notice);
    if (previous?.files !== view.files) this.composer.setFiles(view.files);
    if (!previous || timelineChanged(previous, view)) this.renderTimeline(view, switched);
    if (
      previous?.tabs !== view.tabs ||
      previous.sharedTabIds !== view.sharedTabIds ||
      previous.readingTabs !== view.readingTabs
    ) {
      this.composer.renderShared(view);
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
    this.header.renderAccess(view, this.access);
    this.composer.el.hidden = !!view?.loadError || revoked || !permissions.send;
    this.composer.setUploadAllowed(permissions.upload);
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

  private renderHeader(view: ConversationView): void {
    const latest = this.header.render(view);
    const active = !!latest && isActiveStatus(latest.status);
    const stop = this.composer.stopButton;
    stop.hidden = !active || !this.access.permissions.abort || this.access.revoked;
    if (!active) this.stoppingRun = null;
    stop.disabled = active && this.stoppingRun === latest.id;
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

  private async stop(): Promise<void> {
    const run = this.view ? latestRun(this.view.runs) : null;
    if (!run) return;
    this.stoppingRun = run.id;
    this.composer.stopButton.disabled = true;
    try {
      await this.options.onAbort(run.id);
    } catch (err) {
      this.stoppingRun = null;
      this.composer.stopButton.disabled = false;
      this.composer.setError(errorMessages(err));
    }
  }
}
