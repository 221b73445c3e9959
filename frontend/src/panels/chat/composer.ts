// The composer: the message box with Send and Stop, the files attached (by button or drop) and the tabs
// shared with the next message.

import { h, icon, ICONS, KeyedList, replaceChildren } from "../../dom";
import { errorMessages } from "../../errors";
import { hostOf } from "../../format";
import { NoticeError } from "../../session";
import { shareState } from "../../sharing";
import type { ConversationView, FileChip } from "../../state";
import { createFileChip, fileMention } from "./files";

export interface ComposerOptions {
  /** Sends the message; throws what the server refused (shown over the box) or a NoticeError. */
  onSend: (content: string) => Promise<void>;
  onSent: () => void;
  onStop: () => void;
  onUpload: (file: File) => Promise<void>;
  onDismissFile: (key: string) => void;
  mayUpload: () => boolean;
  maySend: () => boolean;
}

/** Where `text` goes in `value` with the selection `start`–`end`: spaced from its neighbours, and the caret after it. */
export function insertAtSelection(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before && !/\s$/.test(before) ? " " : "";
  const trail = after && !/^\s/.test(after) ? " " : "";
  const inserted = before + lead + text + trail;
  return { value: inserted + after, caret: inserted.length };
}

export class Composer {
  readonly el: HTMLFormElement;
  readonly stopButton: HTMLButtonElement;
  private readonly input = h("textarea", {
    class: "composer-input",
    "data-testid": "chat-input",
    rows: "1",
    placeholder: "Tell the agent what to do on the web…",
    "aria-label": "Message",
  });
  private readonly sendButton: HTMLButtonElement;
  private readonly error = h("div", { class: "form-error", "data-testid": "form-error", role: "alert", hidden: true });
  private readonly filesEl = h("div", { class: "composer-files", "aria-label": "Uploaded files", hidden: true });
  private readonly files: KeyedList<FileChip>;
  private readonly sharedEl = h("div", { class: "composer-shared", "data-testid": "composer-shared-tabs", hidden: true });
  private readonly fileInput = h("input", {
    type: "file",
    multiple: true,
    hidden: true,
    tabindex: "-1",
    "data-testid": "attach-file-input",
  });
  private readonly attachButton: HTMLButtonElement;
  private sending = false;

  constructor(private readonly options: ComposerOptions) {
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
      { class: "btn btn-danger", type: "button", "data-testid": "stop-button", hidden: true, onclick: () => options.onStop() },
      icon(ICONS.stop),
      h("span", null, "Stop"),
    );
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
        onclick: () => this.options.mayUpload() && this.fileInput.click(),
      },
      icon(ICONS.paperclip),
    );
    this.el = h(
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
            if (!e.dataTransfer?.types.includes("Files") || !this.options.mayUpload()) return;
            e.preventDefault();
            (e.currentTarget as HTMLElement).classList.add("dropping");
          },
          ondragleave: (e: DragEvent) => (e.currentTarget as HTMLElement).classList.remove("dropping"),
          ondrop: (e: DragEvent) => {
            (e.currentTarget as HTMLElement).classList.remove("dropping");
            const dropped = [...(e.dataTransfer?.files ?? [])];
            if (!dropped.length || !this.options.mayUpload()) return;
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
  }

  focus(): void {
    this.input.focus();
  }

  setUploadAllowed(allowed: boolean): void {
    this.attachButton.hidden = !allowed;
  }

  setFiles(files: FileChip[]): void {
    this.files.update(files);
    this.filesEl.hidden = files.length === 0;
  }

  clearFiles(): void {
    this.files.clear();
    this.filesEl.hidden = true;
  }

  setError(messages: string[]): void {
    replaceChildren(this.error, ...messages.map((m) => h("div", null, m)));
    this.error.hidden = messages.length === 0;
  }

  prefill(text: string): void {
    this.input.value = text;
    this.autosize();
    this.input.focus();
  }

  /** Over the box: the tabs that go with the next message (toggled in the tab bar). */
  renderShared(view: ConversationView | null): void {
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

  private async uploadAll(files: File[]): Promise<void> {
    this.setError([]);
    try {
      for (const file of files) await this.options.onUpload(file);
    } catch (err) {
      // Only starting a conversation for the files can fail here; upload errors go to the notice.
      this.setError(errorMessages(err));
    }
  }

  /** Puts a reference to an uploaded file into the message at the cursor. */
  private mention(file: FileChip): void {
    if (file.id === null) return;
    const input = this.input;
    const next = insertAtSelection(input.value, input.selectionStart, input.selectionEnd, fileMention({ id: file.id, name: file.name }));
    input.value = next.value;
    input.focus();
    input.setSelectionRange(next.caret, next.caret);
    this.autosize();
  }

  private autosize(): void {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 220)}px`;
  }

  private async submit(): Promise<void> {
    const content = this.input.value.trim();
    if (!content || this.sending || !this.options.maySend()) return;
    this.sending = true;
    this.sendButton.disabled = true;
    this.setError([]);
    try {
      await this.options.onSend(content);
      if (this.input.value.trim() === content) this.input.value = "";
      this.autosize();
      this.options.onSent();
    } catch (err) {
      // Already in the notice (unknown shared tabs): the message stays in the composer to send again.
      if (!(err instanceof NoticeError)) this.setError(errorMessages(err));
    } finally {
      this.sending = false;
      this.sendButton.disabled = false;
      this.input.focus();
    }
  }
}
