// A modal dialog over the page: a header with its title and a close button, then its body. Escape, the close
// button or a press outside closes it; Tab keeps the focus inside it while it is open, and the focus goes back to
// where it was before when it closes.

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
  /** Called once when the dialog closes, however it was closed. */
  onClose?: () => void;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab visits in `root`, in order (hidden ones left out). */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest("[hidden]"));
}

export class Modal {
  /** The backdrop, holding the dialog. */
  readonly el: HTMLElement;
  readonly closeButton: HTMLButtonElement;
  private readonly dialog: HTMLElement;
  private readonly previousFocus: HTMLElement | null;
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") this.close();
    else if (e.key === "Tab") this.trapFocus(e);
  };

  constructor(private readonly options: ModalOptions) {
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
    const dialog = (this.dialog = h(
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
    ));
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
    this.options.onClose?.();
  }

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last; focus never leaves. */
  private trapFocus(e: KeyboardEvent): void {
    const list = focusables(this.dialog);
    const first = list[0];
    const last = list.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const inside = active instanceof Node && this.dialog.contains(active);
    if (e.shiftKey && (active === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  }

  get isOpen(): boolean {
    return this.el.isConnected;
  }
}
