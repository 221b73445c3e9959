// The conversation's notice over the timeline (a refusal, a failed upload …), with "Dismiss"; a dismissed notice
// stays hidden until a new one comes, even when it says the same.

import { h, icon, ICONS, replaceChildren } from "../../dom";

export class Notice {
  readonly el = h("div", { class: "notice", "data-testid": "notice", role: "status", hidden: true });
  private dismissed: string | null = null;

  /** A new notice (or another conversation): show it even when the same text was dismissed before. */
  forgetDismissed(): void {
    this.dismissed = null;
  }

  hide(): void {
    this.el.hidden = true;
  }

  render(notice: string | null): void {
    const show = !!notice && notice !== this.dismissed;
    this.el.hidden = !show;
    if (!show || this.el.dataset.text === notice) return;
    this.el.dataset.text = notice;
    const dismiss = (): void => {
      this.dismissed = notice;
      this.el.hidden = true;
    };
    replaceChildren(
      this.el,
      icon(ICONS.alert),
      h("span", null, notice),
      h("button", { class: "link-button", type: "button", onclick: dismiss }, "Dismiss"),
    );
  }
}
