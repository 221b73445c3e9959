// The dashboard's own dialogs in place of the browser's prompt and confirm: a question with one text field, or a
// yes/no about something that cannot be undone. Each does its work itself: while it runs the buttons wait, and a
// refusal is shown inside the dialog, which stays open to try again. Escape, Cancel or a press outside closes it.

import { h, setText } from "../dom";
import { errorText } from "../errors";
import { Modal } from "./modal";

interface DialogBase {
  title: string;
  /** Beside the title (e.g. what the question is about). */
  subtitle?: string;
  /** The button that does it: "Save", "Delete". */
  submitLabel: string;
  /** Marks the dialog and its parts: `<testid>`, `<testid>-submit`, `<testid>-cancel`, `<testid>-error`. */
  testid: string;
}

export interface AskTextOptions extends DialogBase {
  label: string;
  hint?: string;
  placeholder?: string;
  value?: string;
  maxLength?: number;
  /** Said when the field is left empty. */
  required: string;
  /** Does the work with the typed text (trimmed); a rejection's message shows in the dialog. */
  submit: (value: string) => Promise<void>;
}

export interface ConfirmOptions extends DialogBase {
  text: string;
  /** The button is red: the action destroys something. */
  danger?: boolean;
  confirm: () => Promise<void>;
}

/** A dialog with a form: its fields, an error line, Cancel and the submit button. */
class FormDialog {
  private readonly modal: Modal;
  private readonly error: HTMLElement;
  private readonly submitButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private done = false;

  constructor(
    base: DialogBase & { danger?: boolean },
    fields: HTMLElement[],
    private readonly run: () => Promise<string | null>,
    private readonly settle: (done: boolean) => void,
  ) {
    this.error = h("p", { class: "form-error", role: "alert", "data-testid": `${base.testid}-error`, hidden: true });
    this.submitButton = h(
      "button",
      { class: `btn ${base.danger ? "btn-danger" : "btn-primary"}`, type: "submit", "data-testid": `${base.testid}-submit` },
      base.submitLabel,
    );
    this.cancelButton = h(
      "button",
      { class: "btn btn-ghost", type: "button", "data-testid": `${base.testid}-cancel`, onclick: () => this.modal.close() },
      "Cancel",
    );
    const form = h(
      "form",
      {
        class: "modal-body dialog-form",
        novalidate: true,
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.submit();
        },
      },
      ...fields,
      this.error,
      h("div", { class: "form-actions" }, this.cancelButton, this.submitButton),
    );
    this.modal = new Modal({
      className: "modal-dialog",
      titleId: `${base.testid}-title`,
      title: base.title,
      subtitle: base.subtitle ?? "",
      testid: base.testid,
      closeTestid: `${base.testid}-close`,
      body: form,
      onClose: () => this.settle(this.done),
    });
  }

  open(focus?: HTMLElement): void {
    this.modal.open(focus ?? this.submitButton);
  }

  showError(text: string): void {
    setText(this.error, text);
    this.error.hidden = !text;
  }

  private async submit(): Promise<void> {
    if (this.submitButton.disabled) return;
    this.showError("");
    this.submitButton.disabled = this.cancelButton.disabled = true;
    try {
      const refusal = await this.run();
      if (refusal) {
        this.showError(refusal);
        return;
      }
      this.done = true;
      this.modal.close();
    } catch (err) {
      this.showError(errorText(err));
    } finally {
      this.submitButton.disabled = this.cancelButton.disabled = false;
    }
  }
}

/** Asks for one line of text and does `submit` with it; resolves true once it was done, false when cancelled. */
export function askText(options: AskTextOptions): Promise<boolean> {
  const input = h("input", {
    type: "text",
    class: "dialog-input",
    "data-testid": `${options.testid}-input`,
    maxlength: options.maxLength ? String(options.maxLength) : false,
    placeholder: options.placeholder ?? "",
    autocomplete: "off",
    value: options.value ?? "",
  });
  const field = h(
    "label",
    { class: "field" },
    h("span", { class: "field-label" }, options.label),
    input,
    options.hint ? h("span", { class: "field-hint" }, options.hint) : null,
  );
  return new Promise((resolve) => {
    const dialog = new FormDialog(
      options,
      [field],
      async () => {
        const value = input.value.trim();
        if (!value) {
          input.focus();
          return options.required;
        }
        await options.submit(value);
        return null;
      },
      resolve,
    );
    dialog.open(input);
  });
}

/** Asks before an action that cannot be undone; resolves true once `confirm` was done, false when cancelled. */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = new FormDialog(
      options,
      [h("p", { class: "dialog-text" }, options.text)],
      async () => {
        await options.confirm();
        return null;
      },
      resolve,
    );
    dialog.open();
  });
}
