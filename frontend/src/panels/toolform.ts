// The Tool Inspector's form for one tool, drawn from its input schema (the fields: toolform/fields.ts), with
// the Call button and the errors no field shows. "Edit as JSON" types the whole arguments object instead.

import { h, icon, ICONS, replaceChildren, setText } from "../dom";
import { initialValues, schemaToForm, type FormModel, type FormValues } from "../schemaform";
import { formArguments, parseRawArguments, type ArgumentsResult } from "../schemaargs";
import { SchemaFields } from "./toolform/fields";

export class ToolForm {
  readonly el: HTMLFormElement;
  private readonly fieldsEl: HTMLElement;
  private readonly jsonBox: HTMLTextAreaElement;
  private readonly jsonToggle: HTMLButtonElement;
  private readonly error: HTMLElement;
  private readonly noArgs: HTMLElement;
  readonly callButton: HTMLButtonElement;
  private model: FormModel = { fields: [], raw: false };
  private values: FormValues = {};
  private jsonMode = false;
  private readonly fields = new SchemaFields();

  constructor(onSubmit: () => void) {
    this.fieldsEl = h("div", { class: "sf-fields" });
    this.noArgs = h("p", { class: "sf-none" }, "This tool takes no arguments.");
    this.jsonBox = h("textarea", {
      class: "sf-json sf-json-all",
      "data-testid": "inspector-json",
      rows: "6",
      spellcheck: "false",
      "aria-label": "Arguments as JSON",
      placeholder: '{"name": "value"}',
    });
    this.jsonToggle = h(
      "button",
      { class: "link-button", type: "button", "data-testid": "inspector-json-toggle", onclick: () => this.toggleJson() },
      "Edit as JSON",
    );
    this.error = h("div", { class: "form-error", role: "alert", hidden: true });
    this.callButton = h(
      "button",
      { class: "btn btn-primary btn-sm", type: "submit", "data-testid": "inspector-call" },
      icon(ICONS.send, 14),
      h("span", null, "Call"),
    );
    this.el = h(
      "form",
      {
        class: "sf-form",
        "data-testid": "inspector-form",
        novalidate: true,
        onsubmit: (e: Event) => {
          e.preventDefault();
          onSubmit();
        },
      },
      this.noArgs,
      this.fieldsEl,
      this.jsonBox,
      this.error,
      h("div", { class: "sf-actions" }, this.jsonToggle, h("span", { class: "step-spacer" }), this.callButton),
    );
  }

  /** Draws the form for a tool's schema, with each field's default. */
  setSchema(inputSchema: unknown): void {
    this.model = schemaToForm(inputSchema);
    this.values = initialValues(this.model.fields);
    this.jsonMode = this.model.raw;
    this.jsonBox.value = this.model.raw ? "{}" : "";
    this.render();
  }

  /** The arguments to call with, or the errors to fix first (shown by their fields). */
  read(): ArgumentsResult {
    const result = this.jsonMode ? parseRawArguments(this.jsonBox.value) : formArguments(this.model.fields, this.values);
    this.showErrors(result.errors);
    return result;
  }

  private toggleJson(): void {
    if (!this.jsonMode) {
      // Start from what the form says now (as far as it is valid).
      const { arguments: args } = formArguments(this.model.fields, this.values);
      this.jsonBox.value = JSON.stringify(args, null, 2);
    }
    this.jsonMode = !this.jsonMode || this.model.raw;
    this.render();
    if (this.jsonMode) this.jsonBox.focus();
  }

  private render(): void {
    this.fields.clear();
    this.showErrors({});
    const form = !this.jsonMode;
    this.el.dataset.mode = form ? "form" : "json";
    this.jsonBox.hidden = form;
    this.noArgs.hidden = !form || this.model.fields.length > 0;
    this.jsonToggle.hidden = this.model.raw;
    setText(this.jsonToggle, form ? "Edit as JSON" : "Back to the form");
    if (!form) {
      this.fieldsEl.replaceChildren();
      return;
    }
    replaceChildren(this.fieldsEl, ...this.fields.draw(this.model.fields, this.values));
  }

  private showErrors(errors: Record<string, string>): void {
    const leftover = this.fields.showErrors(errors);
    replaceChildren(this.error, ...leftover.map((m) => h("div", null, m)));
    this.error.hidden = leftover.length === 0;
  }
}
