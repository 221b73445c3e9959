// Chat: the conversation's messages with each run's step timeline between them, the streamed reply,
// the latest run's status and Stop button, and the composer. In a shared conversation the header says the
// reader's role and who is watching; a viewer gets no composer, and a reader whose access was removed is
// told so.

import type { Id } from "../api/types";
import { h, KeyedList, replaceChildren } from "../dom";
import { errorMessages } from "../errors";
import { isActiveStatus, latestRun } from "../reducer";
import { buildTimeline, type TimelineItem } from "../timeline";
import type { ConversationView } from "../state";
import { AccessBanners, OWNER_ACCESS, type ChatAccess } from "./chat/access";
import { Composer } from "./chat/composer";
import { ChatHeader } from "./chat/header";
import { homeScreen } from "./chat/home";
import { Notice } from "./chat/notice";
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
  private readonly notice = new Notice();
  private readonly banners = new AccessBanners();
  private access: ChatAccess = OWNER_ACCESS;
  private view: ConversationView | null = null;
  private stoppingRun: Id | null = null;

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
      this.banners.presenceBar,
      this.banners.revokedEl,
      this.options.settingsBar ?? null,
      this.notice.el,
      this.scroller,
      this.banners.readOnlyNote,
      this.composer.el,
    );
    this.showHome();
  }

  /** The home page: no conversation open; sending starts one. */
  showHome(): void {
    this.view = null;
    this.access = OWNER_ACCESS;
    this.banners.clearPresence();
    this.renderAccess();
    this.composer.el.hidden = false;
    this.timeline.clear();
    this.header.showHome();
    this.composer.stopButton.hidden = true;
    this.notice.hide();
    this.composer.clearFiles();
    this.composer.renderShared(null);
    this.composer.setError([]);
    replaceChildren(this.placeholder, homeScreen((text) => this.composer.prefill(text)));
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
      this.notice.forgetDismissed();
    }
    this.renderAccess();
    this.renderHeader(view);
    // A new notice shows even when an identical one was dismissed before.
    if (previous && previous.notice !== view.notice) this.notice.forgetDismissed();
    this.notice.render(view.notice);
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
    this.banners.setPresence(access, previous);
    this.renderAccess();
    if (this.view) this.renderHeader(this.view);
    // The run blocks offer the owner's links (what the model saw, saving a workflow) to the owner alone.
    if (this.view && previous.permissions.settings !== access.permissions.settings) this.renderTimeline(this.view, false);
  }

  /** What the reader's role allows, shown: the composer, the header's buttons, the role badge, the notes. */
  private renderAccess(): void {
    const view = this.view;
    const { permissions, revoked } = this.access;
    this.header.renderAccess(view, this.access);
    this.composer.el.hidden = !!view?.loadError || revoked || !permissions.send;
    this.composer.setUploadAllowed(permissions.upload);
    this.banners.render(view, this.access);
  }

  private renderHeader(view: ConversationView): void {
    const latest = this.header.render(view);
    const active = !!latest && isActiveStatus(latest.status);
    const stop = this.composer.stopButton;
    stop.hidden = !active || !this.access.permissions.abort || this.access.revoked;
    if (!active) this.stoppingRun = null;
    stop.disabled = active && this.stoppingRun === latest.id;
  }

  private renderTimeline(view: ConversationView, switched: boolean): void {
    const stick = switched || this.nearBottom();
    const items = buildTimeline(view, this.access.permissions.settings && !this.access.revoked);
    this.timeline.update(items);
    let placeholder: HTMLElement | null = null;
    if (view.loadError) {
      placeholder = emptyState("Can't open this conversation", view.loadError);
    } else if (!view.loaded && items.length === 0) {
      placeholder = h("div", { class: "chat-loading" }, h("span", { class: "spinner" }), "Loading conversation…");
    } else if (items.length === 0) {
      placeholder = this.access.permissions.send
        ? emptyState(
            "Start with a task",
            "Tell the agent what to do below. Its steps and a live view of its browser appear as it works.",
          )
        : emptyState(
            "Nothing here yet",
            `When ${view.conversation?.owner ?? "the owner"} gives the agent a task, its messages and steps appear here as they happen.`,
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
