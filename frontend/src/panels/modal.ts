// A modal dialog over the page: a header with its title and a close button, then its body. Escape, the close
// button or a press outside closes it, and the focus goes back to where it was before.

import { h, icon, ICONS } from "../dom";

export interface ModalOptions {
  /** Classes besides `modal` (e.g. `modal-wide`). */
  className: string;
  titleId: string;
  title: string;
  subtitle: string;
  /** Classes besides `modal-sub` on the subtitle. */
  subtitleClass?: string;
  testid: string;
  closeTestid: string;
  body: HTMLElement;
}

export class Modal {
  /** The backdrop, holding the dialog. */
  readonly el: HTMLElement;
  readonly closeButton: HTMLButtonElement;
  private readonly previousFocus: HTMLElement | null;
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") this.close();
  };

  constructor(options: ModalOptions) {
    this.previousFocus = document.activeElement as HTMLElement | null;
    this.closeButton = h(
      "button",
      {
        class: "btn btn-ghost btn-icon",
        type: "button",
        "aria-label": "Close",
        title: "Close",
        "data-testid": options.closeTestid,
        onclick: () => this.close(),
      },
      icon(ICONS.close, 18),
    );
    const subtitleClass = options.subtitleClass ? `modal-sub ${options.subtitleClass}` : "modal-sub";
    const dialog = h(
      "div",
      {
        class: `modal ${options.className}`,
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": options.titleId,
        "data-testid": options.testid,
      },
      h(
        "header",
        { class: "modal-head" },
        h("h2", { id: options.titleId }, options.title),
        h("span", { class: subtitleClass }, options.subtitle),
        h("span", { class: "step-spacer" }),
        this.closeButton,
      ),
      options.body,
    );
    this.el = h("div", { class: "modal-backdrop" }, dialog);
    this.el.addEventListener("mousedown", (e) => {
      if (e.target === this.el) this.close();
    });
  }

  /** Shows the dialog and moves the focus into it (to its close button unless told otherwise). */
  open(focus: HTMLElement = this.closeButton): void {
    document.addEventListener("keydown", this.onKey);
    document.body.appendChild(this.el);
    focus.focus();
  }

  close(): void {
    if (!this.el.isConnected) return;
    this.el.remove();
    document.removeEventListener("keydown", this.onKey);
    this.previousFocus?.focus();
  }

  get isOpen(): boolean {
    return this.el.isConnected;
  }
}
