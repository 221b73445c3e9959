// A model profile's own price, in US dollars per million tokens (input and output, both or neither): for a local
// model, one the price table does not know, or a deal of one's own. Empty: the price table's.

import type { ModelProfile, ModelProfileInput } from "../../api/types";
import { h } from "../../dom";

type PriceKey = "price_input_per_mtok" | "price_output_per_mtok";
const KEYS: readonly PriceKey[] = ["price_input_per_mtok", "price_output_per_mtok"];
const PRICE = /^\d{1,6}(\.\d{1,6})?$/;

/** What the two fields say: the body's price part, or an error per field. */
export function readPrice(values: Record<PriceKey, string>): {
  body: Pick<ModelProfileInput, PriceKey>;
  errors: Partial<Record<PriceKey, string>>;
} {
  const input = values.price_input_per_mtok.trim();
  const output = values.price_output_per_mtok.trim();
  const errors: Partial<Record<PriceKey, string>> = {};
  for (const key of KEYS) {
    const value = values[key].trim();
    if (value && !PRICE.test(value)) errors[key] = "A price in US dollars, like 0.15 (0 for free).";
  }
  if (!!input !== !!output) {
    const missing: PriceKey = input ? "price_output_per_mtok" : "price_input_per_mtok";
    errors[missing] ??= "Set both prices, or neither to use the price table's.";
  }
  return { body: { price_input_per_mtok: input || null, price_output_per_mtok: output || null }, errors };
}

/** A stored price as typed: "0.150000" shows as "0.15". */
export function priceText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const amount = Number(value);
  return Number.isFinite(amount) ? String(amount) : value;
}

export class PriceFields {
  readonly el: HTMLElement;
  readonly inputs: Record<PriceKey, HTMLInputElement>;

  /** `slot` gives the form's error slot for a field (the form shows the server's refusals there too). */
  constructor(slot: (name: string, input: HTMLElement) => HTMLElement) {
    const input = (key: PriceKey, label: string): HTMLInputElement =>
      h("input", { name: key, type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "from the price table", "aria-label": label });
    this.inputs = {
      price_input_per_mtok: input("price_input_per_mtok", "Input price, US dollars per million tokens"),
      price_output_per_mtok: input("price_output_per_mtok", "Output price, US dollars per million tokens"),
    };
    const field = (key: PriceKey, label: string): HTMLElement =>
      h("label", { class: "field" }, h("span", { class: "field-label" }, label), this.inputs[key], slot(key, this.inputs[key]));
    this.el = h(
      "fieldset",
      { class: "field field-wide price-fields", "data-testid": "profile-price" },
      h("legend", { class: "field-label" }, "Price (US dollars per million tokens)"),
      h("div", { class: "form-grid" }, field("price_input_per_mtok", "Input"), field("price_output_per_mtok", "Output")),
      h(
        "span",
        { class: "field-hint" },
        "Leave empty to use the price table. Set it for a local model (0 for free) or one the table does not know; otherwise its runs show “price unknown”.",
      ),
    );
  }

  set(profile: ModelProfile | null): void {
    for (const key of KEYS) this.inputs[key].value = priceText(profile?.[key]);
  }

  read(): ReturnType<typeof readPrice> {
    return readPrice({
      price_input_per_mtok: this.inputs.price_input_per_mtok.value,
      price_output_per_mtok: this.inputs.price_output_per_mtok.value,
    });
  }
}
