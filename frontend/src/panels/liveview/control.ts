// The live view header's controls: the "Take control" switch, who holds the browser's controls, and "Hand back"
// while the reader holds them. The switch asks; what it shows comes back from the server (access.controlUi).

import type { ControlUi } from "../../access";
import { h, icon, ICONS, present, setAttr, setText } from "../../dom";
import { personLabel } from "../../people";

/** Before a conversation says who the reader is: nothing offered, nobody holds the controls. */
export const NO_CONTROL: ControlUi = {
  offered: false,
  mine: false,
  checked: false,
  disabled: true,
  label: "Take control",
  hint: "",
  holder: null,
};

export class ControlSwitch {
  readonly el: HTMLElement;
  private readonly control: HTMLInputElement;
  private readonly label: HTMLElement;
  private readonly text: HTMLElement;
  private readonly status: HTMLElement;
  private readonly holder: HTMLElement;
  private readonly statusText: HTMLElement;
  private readonly handBack: HTMLButtonElement;
  private shown: ControlUi = NO_CONTROL;

  /** `onControl`: take the controls (true) or hand them back (false); `render` shows the outcome. */
  constructor(onControl: (take: boolean) => void) {
    this.control = h("input", {
      type: "checkbox",
      class: "switch",
      "data-testid": "take-control",
      role: "switch",
      "aria-label": "Take control",
    });
    this.control.addEventListener("change", () => {
      const take = this.control.checked;
      this.control.checked = this.shown.checked;
      onControl(take);
    });
    this.text = h("span", null, "Take control");
    this.label = h("label", { class: "switch-label take-control" }, this.control, this.text);
    this.holder = h("span", { class: "control-holder-name", "data-testid": "control-holder" });
    this.statusText = h("span", { class: "control-status-text" });
    this.status = h(
      "span",
      { class: "control-status", "data-testid": "control-status", role: "status" },
      icon(ICONS.cursor, 13),
      this.holder,
      this.statusText,
    );
    this.handBack = h(
      "button",
      {
        class: "btn btn-secondary btn-sm hand-back",
        type: "button",
        "data-testid": "hand-back",
        title: "Give the browser back to the agent: it continues from the page as you left it",
        onclick: () => onControl(false),
      },
      "Hand back",
    );
    this.el = h("div", { class: "live-head-controls" }, this.status, this.label);
  }

  /** What the switch shows now. */
  get ui(): ControlUi {
    return this.shown;
  }

  /** Shows who holds the controls and what the switch offers; `enabled`: a conversation is open. */
  render(ui: ControlUi, enabled: boolean): void {
    this.shown = ui;
    present(this.el, this.label, ui.offered);
    this.control.checked = ui.checked;
    this.control.disabled = !enabled || ui.disabled;
    setAttr(this.control, "aria-label", ui.label);
    setAttr(this.control, "data-holding", ui.mine ? "true" : "false");
    setText(this.text, ui.label);
    setAttr(this.label, "title", ui.hint || null);
    // Who holds the controls, when someone does (nobody: the agent has the browser, as the foot says): "You" for
    // the reader, as everywhere else.
    setText(this.holder, ui.holder === null ? "" : personLabel(ui.holder));
    setText(this.statusText, ui.holder === null ? "" : ui.mine ? " have control" : " has control");
    setAttr(this.status, "data-holder", ui.holder);
    setAttr(this.status, "title", ui.holder === null ? null : ui.mine ? "You have control of the browser" : `${ui.holder} has control of the browser`);
    this.status.hidden = ui.holder === null;
    this.status.classList.toggle("mine", ui.mine);
    // Holding the controls, "Hand back" says what the switch would; the switch keeps its state for assistive tech.
    this.label.classList.toggle("visually-hidden", ui.mine && !ui.disabled);
    present(this.el, this.handBack, ui.mine && ui.offered && !ui.disabled);
  }
}
