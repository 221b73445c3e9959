// A form generated from a tool's JSON Schema (the Tool Inspector): the schema becomes a form model (fields
// with their kind, limits, help text and defaults) and the form's first values. schemaargs.ts turns the
// values into the call's arguments. Pure: no DOM, unit-tested.

type Schema = Record<string, unknown>;

interface FieldBase {
  /** The property's name ("" for an array's items). */
  key: string;
  /** Where the field sits in the arguments, for errors and input names: "filters.maxPrice", "tags[0]". */
  path: string;
  label: string;
  description: string;
  required: boolean;
  /** The schema allows null: the form offers to send null. */
  nullable: boolean;
}

export interface SelectOption {
  /** The value as JSON text, which is also the <option>'s value. */
  key: string;
  label: string;
  value: unknown;
}

export type TextInput = "text" | "date" | "datetime" | "email" | "url";

export type FormField =
  | (FieldBase & {
      kind: "text";
      input: TextInput;
      placeholder: string;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      defaultValue?: string;
    })
  | (FieldBase & {
      kind: "number";
      integer: boolean;
      placeholder: string;
      min?: number;
      max?: number;
      exclusiveMin?: number;
      exclusiveMax?: number;
      step?: number;
      defaultValue?: number;
    })
  | (FieldBase & { kind: "select"; options: SelectOption[]; defaultValue?: string })
  | (FieldBase & { kind: "boolean"; defaultValue: boolean })
  | (FieldBase & { kind: "array"; item: FormField; minItems?: number; maxItems?: number; defaultValue?: unknown[] })
  | (FieldBase & { kind: "object"; fields: FormField[] })
  | (FieldBase & { kind: "json"; defaultValue?: unknown });

/**
 * `fields`: the form for an object schema's properties (none: the tool takes no arguments). `raw`: the
 * schema is not an object with properties, so the whole arguments object is typed as JSON.
 */
export interface FormModel {
  fields: FormField[];
  raw: boolean;
}

/**
 * A field's value as the form holds it: text as typed (number and select fields too; "" is empty), a
 * checkbox as a boolean, an array as its rows, an object as its fields; null when "send null" is chosen.
 */
export type FieldValue = string | boolean | null | FieldValue[] | { [key: string]: FieldValue };
export type FormValues = Record<string, FieldValue>;

/** Deeper than this, a part of the schema is typed as JSON. */
const MAX_DEPTH = 4;

function asSchema(value: unknown): Schema | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : null;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function isNullSchema(s: Schema): boolean {
  return s.type === "null" || s.const === null || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);
}

/** The schema's one type and whether null is allowed too; "json" when it cannot be told (several types). */
function resolve(schema: Schema): { schema: Schema; type: string; nullable: boolean } {
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (variants) {
    const parts = variants.map(asSchema).filter((v): v is Schema => v !== null);
    const nonNull = parts.filter((v) => !isNullSchema(v));
    if (nonNull.length === 1 && parts.length === variants.length) {
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      const inner = resolve({ ...rest, ...nonNull[0] });
      return { ...inner, nullable: inner.nullable || parts.length > 1 };
    }
    return { schema, type: "json", nullable: false };
  }
  if (Array.isArray(schema.enum) || "const" in schema) return { schema, type: "enum", nullable: false };
  let nullable = false;
  let type: unknown = schema.type;
  if (Array.isArray(type)) {
    nullable = type.includes("null");
    const others = type.filter((t) => t !== "null");
    type = others.length === 1 ? others[0] : others.length === 0 ? "null" : "json";
  }
  if (typeof type !== "string") {
    type = asSchema(schema.properties) ? "object" : asSchema(schema.items) ? "array" : "json";
  }
  return { schema, type: type as string, nullable };
}

function optionLabel(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function textInput(format: string): TextInput {
  switch (format) {
    case "date":
      return "date";
    case "date-time":
      return "datetime";
    case "email":
      return "email";
    case "uri":
    case "url":
      return "url";
    default:
      return "text";
  }
}

function placeholderOf(schema: Schema, input?: TextInput): string {
  const examples = Array.isArray(schema.examples) ? schema.examples : [];
  if (examples.length && (typeof examples[0] === "string" || typeof examples[0] === "number")) return String(examples[0]);
  if (input === "datetime") return "2025-05-01T10:00:00Z";
  if (input === "url") return "https://…";
  return "";
}

function buildField(key: string, path: string, raw: unknown, required: boolean, depth: number): FormField {
  const base = asSchema(raw) ?? {};
  const { schema, type, nullable } = resolve(base);
  const common: FieldBase = {
    key,
    path,
    label: str(schema.title) || key,
    description: str(schema.description),
    required,
    nullable,
  };
  const def = schema.default;
  switch (type) {
    case "enum": {
      const values: unknown[] = Array.isArray(schema.enum) ? schema.enum : [schema.const];
      const allowsNull = values.includes(null);
      const options: SelectOption[] = values
        .filter((v) => v !== null)
        .map((value) => ({ key: JSON.stringify(value), label: optionLabel(value), value }));
      if (allowsNull) options.push({ key: "null", label: "null", value: null });
      const known = def !== undefined && values.some((v) => JSON.stringify(v) === JSON.stringify(def));
      const defaultKey = known ? JSON.stringify(def) : undefined;
      return { ...common, nullable: allowsNull, kind: "select", options, defaultValue: defaultKey };
    }
    case "string": {
      const input = textInput(str(schema.format));
      return {
        ...common,
        kind: "text",
        input,
        placeholder: placeholderOf(schema, input),
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        pattern: typeof schema.pattern === "string" ? schema.pattern : undefined,
        defaultValue: typeof def === "string" ? def : undefined,
      };
    }
    case "number":
    case "integer": {
      const integer = type === "integer";
      const multipleOf = num(schema.multipleOf);
      return {
        ...common,
        kind: "number",
        integer,
        placeholder: placeholderOf(schema),
        min: num(schema.minimum),
        max: num(schema.maximum),
        // Draft 4 wrote these as booleans next to minimum/maximum.
        exclusiveMin: num(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? num(schema.minimum) : undefined),
        exclusiveMax: num(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? num(schema.maximum) : undefined),
        step: multipleOf ?? (integer ? 1 : undefined),
        defaultValue: num(def),
      };
    }
    case "boolean":
      if (nullable) {
        const options = [true, false, null].map((value) => ({ key: JSON.stringify(value), label: String(value), value }));
        return { ...common, kind: "select", options, defaultValue: typeof def === "boolean" ? String(def) : undefined };
      }
      return { ...common, kind: "boolean", defaultValue: def === true };
    case "array": {
      const items = asSchema(schema.items);
      const item = items && depth < MAX_DEPTH ? buildField("", `${path}[]`, items, true, depth + 1) : null;
      if (!item || !["text", "number", "select", "boolean"].includes(item.kind)) {
        return { ...common, kind: "json", defaultValue: def };
      }
      return {
        ...common,
        kind: "array",
        item: { ...item, nullable: false },
        minItems: num(schema.minItems),
        maxItems: num(schema.maxItems),
        defaultValue: Array.isArray(def) ? def : undefined,
      };
    }
    case "object": {
      const properties = asSchema(schema.properties);
      if (!properties || Object.keys(properties).length === 0 || depth >= MAX_DEPTH) {
        return { ...common, kind: "json", defaultValue: def };
      }
      return { ...common, kind: "object", fields: buildFields(schema, path, depth + 1) };
    }
    default:
      return { ...common, kind: "json", defaultValue: def };
  }
}

function buildFields(schema: Schema, parentPath: string, depth: number): FormField[] {
  const properties = asSchema(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  return Object.entries(properties).map(([key, sub]) =>
    buildField(key, parentPath ? `${parentPath}.${key}` : key, sub, required.has(key), depth),
  );
}

/** The form for a tool's input schema. No schema (or `{}`) is a tool without arguments. */
export function schemaToForm(inputSchema: unknown): FormModel {
  const schema = asSchema(inputSchema);
  if (!schema || Object.keys(schema).length === 0) return { fields: [], raw: false };
  const { type } = resolve(schema);
  if (type !== "object") return { fields: [], raw: true };
  const properties = asSchema(schema.properties);
  if (!properties) {
    // An object of anything (additionalProperties): only JSON can say it.
    return { fields: [], raw: schema.additionalProperties !== false };
  }
  return { fields: buildFields(schema, "", 1), raw: false };
}

// --- Values ---

function initialValue(field: FormField): FieldValue {
  switch (field.kind) {
    case "text":
      return field.defaultValue ?? "";
    case "number":
      return field.defaultValue !== undefined ? String(field.defaultValue) : "";
    case "select":
      return field.defaultValue ?? "";
    case "boolean":
      return field.defaultValue;
    case "array": {
      const defaults = field.defaultValue;
      const kind = field.item.kind;
      if (defaults) return defaults.map((v) => (kind === "boolean" ? v === true : kind === "select" ? JSON.stringify(v) : String(v)));
      // One empty row to type into (empty rows are not sent).
      return field.item.kind === "boolean" ? [] : [""];
    }
    case "object":
      return initialValues(field.fields);
    case "json":
      return field.defaultValue !== undefined ? JSON.stringify(field.defaultValue, null, 2) : "";
  }
}

/** The form's starting values: each field's default, else empty. */
export function initialValues(fields: readonly FormField[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.key, initialValue(f)]));
}

/** An empty row for an array field. */
export function emptyItem(field: FormField & { kind: "array" }): FieldValue {
  return field.item.kind === "boolean" ? false : "";
}
