// Settings: notes (the agent's memory, which it searches with search_memory) and personas (voices that
// generate_reply writes in). Both are a list with a form to add one, or edit the one chosen, and a delete
// button on each (GET/POST /api/notes/, PATCH/DELETE /api/notes/<id>/; the same under /api/personas/).

import { ApiError, type ApiClient } from "../api/client";
import { errorText } from "../errors";
import type { Id, Note, Persona } from "../api/types";
import { h, icon, ICONS, KeyedList, replaceChildren, setAttr, setText, type Component } from "../dom";
import { relativeTime, truncate } from "../format";

// --- Pure parts (unit-tested) ---

export interface FieldSpec {
  name: string;
  label: string;
  required: boolean;
  maxLength: number;
  multiline?: boolean;
  placeholder?: string;
  hint?: string;
}

export type RecordForm = Record<string, string>;

export const NOTE_FIELDS: FieldSpec[] = [
  { name: "title", label: "Title", required: true, maxLength: 200, placeholder: "e.g. My frequent-flyer number" },
  {
    name: "body",
    label: "Note",
    required: true,
    maxLength: 20_000,
    multiline: true,
    placeholder: "What the agent should remember",
  },
];

export const PERSONA_FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", required: true, maxLength: 100, placeholder: "e.g. Support desk" },
  {
    name: "voice",
    label: "Voice",
    required: true,
    maxLength: 300,
    placeholder: "e.g. warm, concise, a little dry",
    hint: "How it sounds, in a few words.",
  },
  {
    name: "instructions",
    label: "Instructions",
    required: false,
    maxLength: 5_000,
    multiline: true,
    placeholder: "Optional: what it always or never does",
  },
];

/** An empty form, or one filled from a stored record. */
export function recordForm(fields: readonly FieldSpec[], record?: object): RecordForm {
  const values = (record ?? {}) as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f.name, typeof values[f.name] === "string" ? (values[f.name] as string) : ""]));
}

/** Client-side checks before sending, by field (the server checks again). */
export function validateRecord(fields: readonly FieldSpec[], form: RecordForm): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const value = (form[f.name] ?? "").trim();
    if (f.required && !value) errors[f.name] = `${f.label} is required.`;
    else if (value.length > f.maxLength) errors[f.name] = `${f.label}: at most ${f.maxLength.toLocaleString("en-US")} characters.`;
  }
  return errors;
}

/** The request body: every field when creating; only what changed when editing. Text is trimmed. */
export function recordBody(fields: readonly FieldSpec[], form: RecordForm, original?: object): Record<string, string> {
  const stored = (original ?? null) as Record<string, unknown> | null;
  const body: Record<string, string> = {};
  for (const f of fields) {
    const value = (form[f.name] ?? "").trim();
    if (stored?.[f.name] !== value) body[f.name] = value;
  }
  return body;
}

/** Newest first, as the server lists notes. */
export function sortNotes(notes: readonly Note[]): Note[] {
  return [...notes].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || b.id - a.id);
}

/** By name, as the server lists personas. */
export function sortPersonas(personas: readonly Persona[]): Persona[] {
  return [...personas].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

// --- The section ---

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

/** The notes section: what the agent finds again with search_memory. */
export function notesSection(api: ApiClient): RecordSection<Note> {
  return new RecordSection<Note>({
    prefix: "note",
    noun: "note",
    heading: "Notes",
    lead: "Things the agent should remember: it searches your notes with search_memory when a task needs them.",
    empty: "No notes yet.",
    fields: NOTE_FIELDS,
    list: () => api.listNotes(),
    create: (body) => api.createNote(body),
    update: (id, body) => api.updateNote(id, body),
    remove: (id) => api.deleteNote(id),
    sort: sortNotes,
    title: (n) => n.title,
    detail: (n) => n.body,
  });
}

/** The personas section: voices the agent writes in with generate_reply. */
export function personasSection(api: ApiClient): RecordSection<Persona> {
  return new RecordSection<Persona>({
    prefix: "persona",
    noun: "persona",
    heading: "Personas",
    lead: "Voices for writing: generate_reply writes in a persona's voice, following its instructions.",
    empty: "No personas yet.",
    fields: PERSONA_FIELDS,
    list: () => api.listPersonas(),
    create: (body) => api.createPersona(body),
    update: (id, body) => api.updatePersona(id, body),
    remove: (id) => api.deletePersona(id),
    sort: sortPersonas,
    title: (p) => p.name,
    detail: (p) => [p.voice, p.instructions].filter(Boolean).join(" — "),
  });
}
