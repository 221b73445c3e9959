// A settings section for one kind of record (notes, personas): the list, and a form to add one or edit
// the one chosen; delete on each.

import { ApiError } from "../../api/errors";
import { errorText } from "../../errors";
import type { Id } from "../../api/types";
import { h, icon, ICONS, KeyedList, replaceChildren, setAttr, setText, type Component } from "../../dom";
import { relativeTime, truncate } from "../../format";
import { recordBody, recordForm, validateRecord, type FieldSpec, type RecordForm } from "./records";

interface Stored {
  id: Id;
  updated_at: string;
}

export interface RecordKind<T extends Stored> {
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

interface Row<T> {
  item: T;
  editing: boolean;
}

export class RecordSection<T extends Stored> {
  readonly el: HTMLElement;
  private readonly formEl: HTMLFormElement;
  private readonly formHeading: HTMLElement;
  private readonly inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement>();
  private readonly fieldErrors = new Map<string, HTMLElement>();
  private readonly formError: HTMLElement;
  private readonly save: HTMLButtonElement;
  private readonly cancel: HTMLButtonElement;
  private readonly listEl: HTMLElement;
  private readonly list: KeyedList<Row<T>>;
  private readonly empty: HTMLElement;
  private readonly loadError: HTMLElement;
  private items: T[] = [];
  private loaded = false;
  private editing: T | null = null;
  private busy = false;

  constructor(private readonly kind: RecordKind<T>) {
    const p = kind.prefix;
    this.formHeading = h("h3", null);
    this.formError = h("div", { class: "form-error", role: "alert", hidden: true });
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
      const error = h("span", { class: "field-error", hidden: true });
      control.addEventListener("input", () => {
        error.hidden = true;
        control.removeAttribute("aria-invalid");
      });
      this.inputs.set(f.name, control);
      this.fieldErrors.set(f.name, error);
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
      this.formError,
      h("div", { class: "form-actions" }, this.cancel, this.save),
    );
    this.listEl = h("div", { class: "record-list", "data-testid": `${p}-list` });
    this.list = new KeyedList(
      this.listEl,
      (r) => String(r.item.id),
      (r) => this.createRow(r),
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

  private createRow(initial: Row<T>): Component<Row<T>> {
    const p = this.kind.prefix;
    let current = initial;
    const title = h("span", { class: "record-title" });
    const time = h("span", { class: "record-time" });
    const detail = h("div", { class: "record-detail" });
    const error = h("div", { class: "field-error", hidden: true });
    const edit = h(
      "button",
      { class: "btn btn-ghost btn-sm", type: "button", "data-testid": `${p}-edit`, onclick: () => this.startEdit(current.item) },
      icon(ICONS.pencil, 14),
      "Edit",
    );
    const del = h(
      "button",
      { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": `${p}-delete` },
      icon(ICONS.trash, 14),
      "Delete",
    );
    del.addEventListener("click", () => void (async () => {
      del.disabled = true;
      error.hidden = true;
      try {
        await this.remove(current.item);
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
        del.disabled = false;
      }
    })());
    const el = h(
      "div",
      { class: "record-item card", "data-testid": `${p}-item` },
      h(
        "div",
        { class: "profile-top" },
        h("div", { class: "profile-main" }, h("div", { class: "profile-title" }, title, time), detail),
        h("div", { class: "profile-actions" }, edit, del),
      ),
      error,
    );
    const update = (row: Row<T>): void => {
      current = row;
      setAttr(el, "data-id", String(row.item.id));
      el.classList.toggle("editing", row.editing);
      setText(title, this.kind.title(row.item));
      setText(time, relativeTime(row.item.updated_at));
      setAttr(time, "title", `Changed ${new Date(row.item.updated_at).toLocaleString()}`);
      const text = this.kind.detail(row.item);
      setText(detail, truncate(text.replace(/\s+/g, " "), 220).text);
      setAttr(detail, "title", text || null);
      detail.hidden = !text;
    };
    update(initial);
    return { el, update };
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
    this.showErrors({}, []);
  }

  private read(): RecordForm {
    return Object.fromEntries([...this.inputs].map(([name, input]) => [name, input.value]));
  }

  private showErrors(fields: Record<string, string[]>, messages: string[]): void {
    const leftover = [...messages];
    for (const [name, el] of this.fieldErrors) {
      const errors = fields[name];
      el.hidden = !errors?.length;
      el.textContent = errors?.join(" ") ?? "";
      const input = this.inputs.get(name);
      if (errors?.length) input?.setAttribute("aria-invalid", "true");
      else input?.removeAttribute("aria-invalid");
    }
    for (const [name, errors] of Object.entries(fields)) if (!this.fieldErrors.has(name)) leftover.push(...errors);
    replaceChildren(this.formError, ...leftover.map((m) => h("div", null, m)));
    this.formError.hidden = leftover.length === 0;
  }

  private async submit(): Promise<void> {
    if (this.busy) return;
    const form = this.read();
    const invalid = validateRecord(this.kind.fields, form);
    if (Object.keys(invalid).length) {
      this.showErrors(Object.fromEntries(Object.entries(invalid).map(([k, v]) => [k, [v]])), []);
      this.focusField(Object.keys(invalid)[0]);
      return;
    }
    this.showErrors({}, []);
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
      if (err instanceof ApiError) {
        this.showErrors(err.fieldErrors, err.detail ? [err.detail] : Object.keys(err.fieldErrors).length ? [] : [err.message]);
      } else {
        this.showErrors({}, [errorText(err)]);
      }
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
