// A settings form's errors: each under its field (its input marked aria-invalid) and the rest in a box over the
// buttons; a refused save is split the same way (the API's field errors by field, its detail in the box).

import { ApiError } from "../api/errors";
import { h, replaceChildren } from "../dom";
import { errorText } from "../errors";

interface FieldSlot {
  slot: HTMLElement;
  input: HTMLElement | null;
}

export class FormErrors {
  /** Errors no field shows. */
  readonly box = h("div", { class: "form-error", role: "alert", hidden: true });
  private readonly fields = new Map<string, FieldSlot>();

  /** The error slot for a field, to place under it; `input` is marked invalid while it shows an error. */
  slot(name: string, input: HTMLElement | null = null): HTMLElement {
    const slot = h("span", { class: "field-error", hidden: true });
    this.fields.set(name, { slot, input });
    return slot;
  }

  /** Shows these errors (by field name, and messages for the box) and clears every other. */
  show(fields: Record<string, string[]>, messages: string[] = []): void {
    const leftover = [...messages];
    for (const [name, { slot, input }] of this.fields) {
      const errors = fields[name];
      slot.hidden = !errors?.length;
      slot.textContent = errors?.join(" ") ?? "";
      if (errors?.length) input?.setAttribute("aria-invalid", "true");
      else input?.removeAttribute("aria-invalid");
    }
    for (const [name, errors] of Object.entries(fields)) if (!this.fields.has(name)) leftover.push(...errors);
    this.fill(leftover);
  }

  /** A refused save: the API's field errors under their fields and its detail in the box; anything else as text. */
  showError(err: unknown): void {
    if (err instanceof ApiError) {
      this.show(err.fieldErrors, err.detail ? [err.detail] : Object.keys(err.fieldErrors).length ? [] : [err.message]);
    } else {
      this.show({}, [errorText(err)]);
    }
  }

  /** One message in the box; the fields' errors stay as they are. */
  say(message: string): void {
    this.fill([message]);
  }

  /** The user changed the field: its error goes. */
  hide(name: string): void {
    const field = this.fields.get(name);
    if (field) field.slot.hidden = true;
  }

  clear(): void {
    this.show({});
  }

  private fill(messages: string[]): void {
    replaceChildren(this.box, ...messages.map((m) => h("div", null, m)));
    this.box.hidden = messages.length === 0;
  }
}
