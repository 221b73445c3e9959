// A generated form's values → a tool call's arguments, with their types coerced and checked against the
// schema's limits; or arguments typed as raw JSON; and a tool's result shown pretty. Pure, unit-tested.

import type { FieldValue, FormField, FormValues } from "./schemaform";

export interface ArgumentsResult {
  arguments: Record<string, unknown>;
  /** By field path; the call is not made while there are any. */
  errors: Record<string, string>;
}

type Coerced = { present: false } | { present: true; value: unknown };
const ABSENT: Coerced = { present: false };

function present(value: unknown): Coerced {
  return { present: true, value };
}

function checkText(field: FormField & { kind: "text" }, text: string): string | null {
  if (field.minLength !== undefined && text.length < field.minLength) {
    return `Needs at least ${field.minLength} character${field.minLength === 1 ? "" : "s"}.`;
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) return `At most ${field.maxLength} characters.`;
  if (field.pattern !== undefined) {
    let re: RegExp | null;
    try {
      re = new RegExp(field.pattern, "u");
    } catch {
      re = null; // a pattern this browser cannot read is the page's to check
    }
    if (re && !re.test(text)) return `Must match ${field.pattern}.`;
  }
  return null;
}

function checkNumber(field: FormField & { kind: "number" }, n: number): string | null {
  if (field.integer && !Number.isInteger(n)) return "Must be a whole number.";
  if (field.min !== undefined && n < field.min) return `Must be at least ${field.min}.`;
  if (field.max !== undefined && n > field.max) return `Must be at most ${field.max}.`;
  if (field.exclusiveMin !== undefined && n <= field.exclusiveMin) return `Must be more than ${field.exclusiveMin}.`;
  if (field.exclusiveMax !== undefined && n >= field.exclusiveMax) return `Must be less than ${field.exclusiveMax}.`;
  return null;
}

function coerce(field: FormField, value: FieldValue | undefined, path: string, errors: Record<string, string>): Coerced {
  if (value === null) {
    if (field.nullable) return present(null);
    value = undefined;
  }
  const fail = (message: string): Coerced => {
    errors[path] = message;
    return ABSENT;
  };
  switch (field.kind) {
    case "text": {
      const text = typeof value === "string" ? value : "";
      if (text === "") {
        if (!field.required) return ABSENT;
        // A required date, address or patterned field has no meaningful empty value.
        if (field.input !== "text" || field.pattern !== undefined || (field.minLength ?? 0) > 0) return fail("Required.");
        return present("");
      }
      const problem = checkText(field, text);
      return problem ? fail(problem) : present(text);
    }
    case "number": {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "") return field.required ? fail("Required: enter a number.") : ABSENT;
      const n = Number(text);
      if (!Number.isFinite(n)) return fail("Must be a number.");
      const problem = checkNumber(field, n);
      return problem ? fail(problem) : present(n);
    }
    case "select": {
      const key = typeof value === "string" ? value : "";
      if (key === "") return field.required ? fail("Required: choose one.") : ABSENT;
      const option = field.options.find((o) => o.key === key);
      return option ? present(option.value) : fail("Choose one of the listed values.");
    }
    case "boolean": {
      const checked = value === true;
      return field.required || checked !== field.defaultValue ? present(checked) : ABSENT;
    }
    case "array": {
      const rows: (FieldValue | undefined)[] = Array.isArray(value) ? value : [];
      const out: unknown[] = [];
      rows.forEach((row, i) => {
        // Empty rows are left out, not sent as "".
        if (row === "" || row === undefined) return;
        const item = coerce({ ...field.item, required: true }, row, `${path}[${i}]`, errors);
        if (item.present) out.push(item.value);
      });
      if (out.length === 0 && !field.required) return ABSENT;
      if (field.minItems !== undefined && out.length < field.minItems) {
        return fail(`Needs at least ${field.minItems} value${field.minItems === 1 ? "" : "s"}.`);
      }
      if (field.maxItems !== undefined && out.length > field.maxItems) return fail(`At most ${field.maxItems} values.`);
      return present(out);
    }
    case "object": {
      const values = value && typeof value === "object" && !Array.isArray(value) ? value : {};
      const result = coerceFields(field.fields, values, path, errors);
      if (Object.keys(result).length === 0 && !field.required) return ABSENT;
      return present(result);
    }
    case "json": {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "") return field.required ? fail("Required: type a JSON value.") : ABSENT;
      try {
        return present(JSON.parse(text));
      } catch {
        return fail("Not valid JSON.");
      }
    }
  }
}

function coerceFields(
  fields: readonly FormField[],
  values: Record<string, FieldValue>,
  parentPath: string,
  errors: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const path = parentPath ? `${parentPath}.${field.key}` : field.key;
    const result = coerce(field, values[field.key], path, errors);
    if (result.present) out[field.key] = result.value;
  }
  return out;
}

/**
 * The call's arguments from the form: numbers as numbers, selects as their values, empty optional fields
 * left out, "send null" as null; `errors` (by field path) say what must be fixed first.
 */
export function formArguments(fields: readonly FormField[], values: FormValues): ArgumentsResult {
  const errors: Record<string, string> = {};
  const args = coerceFields(fields, values, "", errors);
  return { arguments: args, errors };
}

/** Arguments typed as JSON: they must be one JSON object. */
export function parseRawArguments(text: string): ArgumentsResult {
  const trimmed = text.trim();
  if (trimmed === "") return { arguments: {}, errors: {} };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return { arguments: {}, errors: { "": `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` } };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { arguments: {}, errors: { "": "The arguments must be one JSON object, such as {\"query\": \"mug\"}." } };
  }
  return { arguments: value as Record<string, unknown>, errors: {} };
}

/** A tool's result as shown: pretty JSON when it parses as JSON, else the text as it came. */
export function prettyResult(text: string): { text: string; json: boolean } {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[") || trimmed.startsWith('"')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // Not JSON after all (or cut short): shown as it came.
    }
  }
  return { text, json: false };
}
