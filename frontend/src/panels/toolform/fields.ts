// The fields of a form drawn from a JSON Schema (schemaform.ts): text, date and number inputs with their limits,
// selects for enums, checkboxes, rows for arrays, fieldsets for nested objects, a JSON box for anything else;
// required marks, each field's description as help, and a slot for each field's error.

import { h, icon, ICONS, replaceChildren, type Child } from "../../dom";
import { emptyItem, type FieldValue, type FormField, type FormValues } from "../../schemaform";

let idCounter = 0;
const nextId = (): string => `sf-${++idCounter}`;

type Getter = () => FieldValue | undefined;
type Setter = (value: FieldValue) => void;

export class SchemaFields {
  private readonly errorSlots = new Map<string, HTMLElement>();

  /** Draws the fields bound to `values` (changed in place as the user types); the error slots start anew. */
  draw(fields: readonly FormField[], values: FormValues): HTMLElement[] {
    this.errorSlots.clear();
    return fields.map((field) =>
      this.renderField(
        field,
        () => values[field.key],
        (v) => (values[field.key] = v),
      ),
    );
  }

  /** No fields drawn (the JSON box instead): no error slots either. */
  clear(): void {
    this.errorSlots.clear();
  }

  /** Shows each error under its field (an array row's under its array); returns those no field shows. */
  showErrors(errors: Record<string, string>): string[] {
    for (const slot of this.errorSlots.values()) {
      slot.hidden = true;
      slot.textContent = "";
    }
    const leftover: string[] = [];
    for (const [path, message] of Object.entries(errors)) {
      // An array row's error shows under its array ("tags[1]" → "tags").
      const slot = this.errorSlots.get(path) ?? this.errorSlots.get(path.replace(/\[\d+\]$/, ""));
      if (slot) {
        slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
        slot.hidden = false;
      } else {
        leftover.push(path ? `${path}: ${message}` : message);
      }
    }
    return leftover;
  }

  private errorSlot(path: string): HTMLElement {
    const slot = h("span", { class: "field-error", "data-error-for": path, hidden: true });
    this.errorSlots.set(path, slot);
    return slot;
  }

  private label(field: FormField, forId: string | null): HTMLElement {
    const parts: Child[] = [
      h("span", null, field.label),
      field.required ? h("span", { class: "sf-required", title: "Required", "aria-label": "required" }, "*") : null,
      field.label !== field.key && field.key ? h("code", { class: "sf-key" }, field.key) : null,
    ];
    return forId ? h("label", { class: "sf-label", for: forId }, ...parts) : h("span", { class: "sf-label" }, ...parts);
  }

  private help(field: FormField): HTMLElement | null {
    return field.description ? h("span", { class: "sf-help" }, field.description) : null;
  }

  private renderField(field: FormField, get: Getter, set: Setter): HTMLElement {
    const wrap = (control: HTMLElement, forId: string | null, ...extra: Child[]): HTMLElement =>
      h(
        "div",
        { class: `sf-field sf-${field.kind}`, "data-path": field.path, "data-kind": field.kind },
        this.label(field, forId),
        control,
        ...extra,
        this.help(field),
        this.errorSlot(field.path),
      );
    switch (field.kind) {
      case "object":
        return h(
          "fieldset",
          { class: "sf-object", "data-path": field.path, "data-kind": "object" },
          h("legend", null, this.label(field, null)),
          this.help(field),
          ...field.fields.map((child) =>
            this.renderField(
              child,
              () => objectOf(get())[child.key],
              (v) => {
                const current = objectOf(get());
                current[child.key] = v;
                set(current);
              },
            ),
          ),
          this.errorSlot(field.path),
        );
      case "boolean": {
        const id = nextId();
        const box = h("input", { type: "checkbox", id, name: field.path, checked: get() === true });
        box.addEventListener("change", () => set(box.checked));
        return h(
          "div",
          { class: "sf-field sf-boolean", "data-path": field.path, "data-kind": "boolean" },
          h("label", { class: "check", for: id }, box, this.label(field, null)),
          this.help(field),
          this.errorSlot(field.path),
        );
      }
      case "array":
        return this.renderArray(field, get, set, wrap);
      default: {
        const id = nextId();
        const control = this.control(field, id, field.path, get, set);
        return wrap(control.el, id, control.nullBox);
      }
    }
  }

  /** A text, number, select or JSON control bound to its value; nullable ones get a "null" checkbox. */
  private control(
    field: FormField,
    id: string,
    name: string,
    get: Getter,
    set: Setter,
  ): { el: HTMLElement; nullBox: HTMLElement | null } {
    let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const value = get();
    const text = typeof value === "string" ? value : "";
    switch (field.kind) {
      case "select":
        input = h(
          "select",
          { id, name },
          h("option", { value: "" }, field.required ? "Choose…" : "— leave out —"),
          ...field.options.map((o) => h("option", { value: o.key }, o.label)),
        );
        input.value = value === null ? "null" : text;
        break;
      case "number":
        input = h("input", {
          id,
          name,
          type: "number",
          inputmode: field.integer ? "numeric" : "decimal",
          min: field.min ?? field.exclusiveMin ?? null,
          max: field.max ?? field.exclusiveMax ?? null,
          step: field.step !== undefined ? String(field.step) : "any",
          placeholder: field.placeholder || null,
        });
        input.value = text;
        break;
      case "text": {
        const type = field.input === "datetime" ? "text" : field.input;
        input = h("input", {
          id,
          name,
          type,
          placeholder: field.placeholder || null,
          maxlength: field.maxLength ?? null,
          autocomplete: "off",
          spellcheck: "false",
        });
        input.value = text;
        break;
      }
      default:
        input = h("textarea", { id, name, class: "sf-json", rows: "3", spellcheck: "false", placeholder: "JSON" });
        input.value = text;
        break;
    }
    const control = input;
    control.addEventListener(field.kind === "select" ? "change" : "input", () => set(control.value));
    if (!field.nullable || field.kind === "select") return { el: control, nullBox: null };
    // "null" is a value of its own (e.g. a filter cleared), not the same as leaving the field out.
    let kept = text;
    const box = h("input", { type: "checkbox", name: `${name}:null`, checked: value === null });
    control.disabled = value === null;
    box.addEventListener("change", () => {
      control.disabled = box.checked;
      if (box.checked) {
        kept = control.value;
        set(null);
      } else {
        control.value = kept;
        set(kept);
      }
    });
    return { el: control, nullBox: h("label", { class: "check sf-null", title: "Send null" }, box, h("span", null, "null")) };
  }

  private renderArray(
    field: FormField & { kind: "array" },
    get: Getter,
    set: Setter,
    wrap: (control: HTMLElement, forId: string | null, ...extra: Child[]) => HTMLElement,
  ): HTMLElement {
    const rowsEl = h("div", { class: "sf-rows" });
    const rows = (): FieldValue[] => {
      const value = get();
      return Array.isArray(value) ? value : [];
    };
    const add = h(
      "button",
      { class: "link-button sf-add", type: "button", "data-testid": "inspector-add-row" },
      icon(ICONS.plus, 12),
      "Add a value",
    );
    const draw = (): void => {
      const list = rows();
      replaceChildren(
        rowsEl,
        ...list.map((_, i) => {
          const id = nextId();
          const itemGet: Getter = () => rows()[i];
          const itemSet: Setter = (v) => {
            const next = rows().slice();
            next[i] = v;
            set(next);
          };
          let control: HTMLElement;
          if (field.item.kind === "boolean") {
            const box = h("input", { type: "checkbox", id, name: `${field.path}[${i}]`, checked: itemGet() === true });
            box.addEventListener("change", () => itemSet(box.checked));
            control = box;
          } else {
            control = this.control(field.item, id, `${field.path}[${i}]`, itemGet, itemSet).el;
          }
          const remove = h(
            "button",
            {
              class: "ctx-button",
              type: "button",
              title: "Remove this value",
              "aria-label": `Remove value ${i + 1}`,
              onclick: () => {
                set(rows().filter((__, j) => j !== i));
                draw();
              },
            },
            icon(ICONS.close, 12),
          );
          return h("div", { class: "sf-row" }, control, remove);
        }),
      );
      add.disabled = field.maxItems !== undefined && list.length >= field.maxItems;
    };
    add.addEventListener("click", () => {
      set([...rows(), emptyItem(field)]);
      draw();
      rowsEl.querySelector<HTMLElement>(".sf-row:last-child input, .sf-row:last-child select")?.focus();
    });
    draw();
    return wrap(rowsEl, null, add);
  }
}

function objectOf(value: FieldValue | undefined): Record<string, FieldValue> {
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}
