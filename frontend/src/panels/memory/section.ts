// A settings section for one kind of record (notes, personas): the list, and a form to add one or edit
// the one chosen; delete on each.

import { ApiError } from "../../api/errors";
import type { Id } from "../../api/types";
import { h, KeyedList, setText } from "../../dom";
import { errorText } from "../../errors";
import { FormErrors } from "../formerrors";
import { recordBody, recordForm, validateRecord, type FieldSpec, type RecordForm } from "./records";
import { createRecordRow, type RecordRow, type StoredRecord } from "./row";

export interface RecordKind<T extends StoredRecord> {
  /** The testid prefix: note-form, note-item, note-delete … */
  prefix: string;
  noun: string;
  heading: string;
  /** One line: what the agent does with them. */
  lead: string;
  empty: string;
  fields: FieldSpec[];
  list(): Promise<T[]>;
  create(body: Record<string, string>): Promise<T>;
  update(id: Id, body: Record<string, string>): Promise<T>;
  remove(id: Id): Promise<void>;
  sort(items: readonly T[]): T[];
  title(item: T): string;
  detail(item: T): string;
}

export class RecordSection<T extends StoredRecord> {
  readonly el: HTMLElement;
  private readonly formEl: HTMLFormElement;
  private readonly formHeading: HTMLElement;
  private readonly inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement>();
  private readonly errors = new FormErrors();
  private readonly save: HTMLButtonElement;
  private readonly cancel: HTMLButtonElement;
  private readonly listEl: HTMLElement;
  private readonly list: KeyedList<RecordRow<T>>;
  private readonly empty: HTMLElement;
  private readonly loadError: HTMLElement;
  private items: T[] = [];
  private loaded = false;
  private editing: T | null = null;
  private busy = false;

  constructor(private readonly kind: RecordKind<T>) {
    const p = kind.prefix;
    this.formHeading = h("h3", null);
    this.save = h("button", { class: "btn btn-primary", type: "submit", "data-testid": `${p}-save` });
    this.cancel = h(
      "button",
      { class: "btn btn-ghost", type: "button", "data-testid": `${p}-cancel`, onclick: () => this.startCreate() },
      "Cancel",
    );
    const fieldEls = kind.fields.map((f) => {
      const control = f.multiline
        ? h("textarea", { name: f.name, rows: "4", maxlength: String(f.maxLength), placeholder: f.placeholder ?? null })
        : h("input", {
            name: f.name,
            type: "text",
            maxlength: String(f.maxLength),
            autocomplete: "off",
            placeholder: f.placeholder ?? null,
          });
      const error = this.errors.slot(f.name, control);
      control.addEventListener("input", () => {
        error.hidden = true;
        control.removeAttribute("aria-invalid");
      });
      this.inputs.set(f.name, control);
      return h(
        "label",
        { class: `field${f.multiline ? " field-wide" : ""}` },
        h("span", { class: "field-label" }, f.label, f.required ? null : h("span", { class: "field-optional" }, " (optional)")),
        control,
        f.hint ? h("span", { class: "field-hint" }, f.hint) : null,
        error,
      );
    });
    this.formEl = h(
      "form",
      {
        class: "record-form card",
        "data-testid": `${p}-form`,
        novalidate: true,
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.submit();
        },
      },
      this.formHeading,
      h("div", { class: "form-grid" }, ...fieldEls),
      this.errors.box,
      h("div", { class: "form-actions" }, this.cancel, this.save),
    );
    this.listEl = h("div", { class: "record-list", "data-testid": `${p}-list` });
    this.list = new KeyedList(
      this.listEl,
      (r) => String(r.item.id),
      (r) => createRecordRow(r, kind, { edit: (item) => this.startEdit(item), remove: (item) => this.remove(item) }),
    );
    this.empty = h("p", { class: "settings-empty", hidden: true }, kind.empty);
    this.loadError = h("div", { class: "form-error", role: "alert", hidden: true });
    this.el = h(
      "section",
      { class: "settings-section", "data-testid": `${p}s`, "aria-labelledby": `${p}s-title` },
      h(
        "div",
        { class: "settings-section-head" },
        h("div", null, h("h2", { id: `${p}s-title` }, kind.heading), h("p", { class: "settings-lead" }, kind.lead)),
      ),
      this.loadError,
      this.formEl,
      this.listEl,
      this.empty,
    );
    this.startCreate(false);
  }

  /** Loads the list again (the settings page was opened). */
  async load(): Promise<void> {
    try {
      this.items = this.kind.sort(await this.kind.list());
      this.loaded = true;
      this.loadError.hidden = true;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return;
      setText(this.loadError, `Could not load your ${this.kind.noun}s: ${errorText(err)}`);
      this.loadError.hidden = false;
    }
    const editing = this.editing;
    if (editing && !this.items.some((i) => i.id === editing.id)) this.startCreate(false);
    this.render();
  }

  private render(): void {
    const editingId = this.editing?.id ?? null;
    this.list.update(this.items.map((item) => ({ item, editing: item.id === editingId })));
    this.empty.hidden = !this.loaded || this.items.length > 0;
  }

  private startCreate(focus = true): void {
    this.editing = null;
    this.fill(recordForm(this.kind.fields));
    setText(this.formHeading, `Add a ${this.kind.noun}`);
    setText(this.save, `Add ${this.kind.noun}`);
    this.cancel.hidden = true;
    this.formEl.classList.remove("editing");
    if (focus) this.focusField(this.kind.fields[0]?.name);
    this.render();
  }

  private focusField(name: string | undefined): void {
    if (name !== undefined) this.inputs.get(name)?.focus();
  }

  private startEdit(item: T): void {
    this.editing = item;
    this.fill(recordForm(this.kind.fields, item));
    setText(this.formHeading, `Edit “${this.kind.title(item)}”`);
    setText(this.save, "Save changes");
    this.cancel.hidden = false;
    this.formEl.classList.add("editing");
    this.formEl.scrollIntoView({ block: "nearest", behavior: "smooth" });
    this.focusField(this.kind.fields[0]?.name);
    this.render();
  }

  private fill(form: RecordForm): void {
    for (const [name, input] of this.inputs) input.value = form[name] ?? "";
    this.errors.clear();
  }

  private read(): RecordForm {
    return Object.fromEntries([...this.inputs].map(([name, input]) => [name, input.value]));
  }

  private async submit(): Promise<void> {
    if (this.busy) return;
    const form = this.read();
    const invalid = validateRecord(this.kind.fields, form);
    if (Object.keys(invalid).length) {
      this.errors.show(Object.fromEntries(Object.entries(invalid).map(([k, v]) => [k, [v]])));
      this.focusField(Object.keys(invalid)[0]);
      return;
    }
    this.errors.clear();
    this.busy = true;
    this.save.disabled = true;
    try {
      const editing = this.editing;
      const saved = editing
        ? await this.kind.update(editing.id, recordBody(this.kind.fields, form, editing))
        : await this.kind.create(recordBody(this.kind.fields, form));
      this.items = this.kind.sort([...this.items.filter((i) => i.id !== saved.id), saved]);
      this.loaded = true;
      this.startCreate(false);
    } catch (err) {
      this.errors.showError(err);
    } finally {
      this.busy = false;
      this.save.disabled = false;
    }
  }

  private async remove(item: T): Promise<void> {
    await this.kind.remove(item.id);
    this.items = this.items.filter((i) => i.id !== item.id);
    if (this.editing?.id === item.id) this.startCreate(false);
    else this.render();
  }
}
