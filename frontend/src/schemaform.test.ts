import { describe, expect, it } from "vitest";
import { initialValues, schemaToForm, type FormField, type FormValues } from "./schemaform";
import { formArguments, parseRawArguments, prettyResult } from "./schemaargs";

// The demo flight search's tools (webapp/demo/sites/flights/flights.js) and the demo shop's SKILL.
const searchFlights = {
  type: "object",
  properties: {
    from: { type: "string", pattern: "^[A-Za-z]{3}$", description: "Departure airport, 3-letter IATA code, e.g. PEK." },
    to: { type: "string", pattern: "^[A-Za-z]{3}$", description: "Arrival airport." },
    date: { type: "string", format: "date", description: "Departure date, YYYY-MM-DD." },
  },
  required: ["from", "to", "date"],
  additionalProperties: false,
};
const setFilters = {
  type: "object",
  properties: {
    maxPrice: { type: ["number", "null"], minimum: 0, description: "Highest price; null: any price." },
    maxStops: { type: ["integer", "null"], minimum: 0, maximum: 2 },
    airline: { type: ["string", "null"], enum: ["Air China", "China Eastern", null] },
  },
  additionalProperties: false,
};
const addToCart = {
  type: "object",
  properties: {
    productId: { type: "string", description: "The product's id from searchProducts, e.g. \"p101\"." },
    quantity: { type: "integer", minimum: 1, maximum: 99, default: 1, description: "How many to add (1 to 99)." },
  },
  required: ["productId"],
  additionalProperties: false,
};

function field(fields: FormField[], key: string): FormField {
  const found = fields.find((f) => f.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found;
}

function call(schema: unknown, values: FormValues) {
  const model = schemaToForm(schema);
  return formArguments(model.fields, { ...initialValues(model.fields), ...values });
}

describe("schemaToForm", () => {
  it("makes a text, date or number input per property, with required marks, limits and help", () => {
    const { fields, raw } = schemaToForm(searchFlights);
    expect(raw).toBe(false);
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ["from", "text", true],
      ["to", "text", true],
      ["date", "text", true],
    ]);
    expect(field(fields, "date")).toMatchObject({ input: "date", description: "Departure date, YYYY-MM-DD." });
    expect(field(fields, "from")).toMatchObject({ input: "text", pattern: "^[A-Za-z]{3}$" });

    const cart = schemaToForm(addToCart).fields;
    expect(field(cart, "quantity")).toMatchObject({ kind: "number", integer: true, min: 1, max: 99, step: 1, defaultValue: 1, required: false });
  });

  it("turns an enum into a select, and a type that allows null into a nullable field", () => {
    const fields = schemaToForm(setFilters).fields;
    expect(field(fields, "maxPrice")).toMatchObject({ kind: "number", integer: false, nullable: true, min: 0 });
    expect(field(fields, "maxStops")).toMatchObject({ kind: "number", integer: true, nullable: true, max: 2 });
    const airline = field(fields, "airline");
    expect(airline.kind).toBe("select");
    expect(airline.kind === "select" && airline.options.map((o) => [o.label, o.value])).toEqual([
      ["Air China", "Air China"],
      ["China Eastern", "China Eastern"],
      ["null", null],
    ]);
    // anyOf [X, null] reads as a nullable X.
    const anyOf = schemaToForm({ type: "object", properties: { d: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] } } });
    expect(field(anyOf.fields, "d")).toMatchObject({ kind: "text", input: "date", nullable: true });
  });

  it("draws booleans as checkboxes, arrays of primitives as rows and nested objects as fieldsets", () => {
    const { fields } = schemaToForm({
      type: "object",
      properties: {
        nonstop: { type: "boolean", default: true, title: "Nonstop only" },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
        sizes: { type: "array", items: { type: "integer", minimum: 36 } },
        passenger: {
          type: "object",
          properties: { name: { type: "string" }, age: { type: "integer" } },
          required: ["name"],
        },
      },
    });
    expect(field(fields, "nonstop")).toMatchObject({ kind: "boolean", defaultValue: true, label: "Nonstop only" });
    expect(field(fields, "tags")).toMatchObject({ kind: "array", maxItems: 3, item: { kind: "text" } });
    expect(field(fields, "sizes")).toMatchObject({ kind: "array", item: { kind: "number", integer: true, min: 36 } });
    const passenger = field(fields, "passenger");
    expect(passenger.kind === "object" && passenger.fields.map((f) => [f.path, f.required])).toEqual([
      ["passenger.name", true],
      ["passenger.age", false],
    ]);
  });

  it("falls back to a JSON box for what a form cannot say", () => {
    const { fields } = schemaToForm({
      type: "object",
      properties: {
        either: { oneOf: [{ type: "string" }, { type: "number" }] },
        rows: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
        anything: {},
        ref: { $ref: "#/definitions/x" },
      },
    });
    expect(fields.map((f) => f.kind)).toEqual(["json", "json", "json", "json"]);
  });

  it("knows a tool without arguments, and one whose whole arguments are free JSON", () => {
    expect(schemaToForm({ type: "object", properties: {}, additionalProperties: false })).toEqual({ fields: [], raw: false });
    expect(schemaToForm(null)).toEqual({ fields: [], raw: false });
    expect(schemaToForm({})).toEqual({ fields: [], raw: false });
    expect(schemaToForm({ type: "object", additionalProperties: { type: "string" } })).toEqual({ fields: [], raw: true });
    expect(schemaToForm({ type: "string" })).toEqual({ fields: [], raw: true });
  });
});

describe("formArguments", () => {
  it("sends what was typed, checked against the schema", () => {
    expect(call(searchFlights, { from: "PEK", to: "SHA", date: "2025-05-01" })).toEqual({
      arguments: { from: "PEK", to: "SHA", date: "2025-05-01" },
      errors: {},
    });
    const bad = call(searchFlights, { from: "Beijing", to: "", date: "" });
    expect(bad.errors).toEqual({ from: "Must match ^[A-Za-z]{3}$.", to: "Required.", date: "Required." });
  });

  it("coerces numbers, starts from defaults and leaves empty optional fields out", () => {
    expect(call(addToCart, { productId: "p101" })).toEqual({ arguments: { productId: "p101", quantity: 1 }, errors: {} });
    expect(call(addToCart, { productId: "p101", quantity: " 3 " }).arguments).toEqual({ productId: "p101", quantity: 3 });
    expect(call(addToCart, { productId: "p101", quantity: "" }).arguments).toEqual({ productId: "p101" });
    expect(call(addToCart, { productId: "p101", quantity: "2.5" }).errors).toEqual({ quantity: "Must be a whole number." });
    expect(call(addToCart, { productId: "p101", quantity: "120" }).errors).toEqual({ quantity: "Must be at most 99." });
    expect(call(addToCart, { productId: "p101", quantity: "many" }).errors).toEqual({ quantity: "Must be a number." });
    // A required plain string may be empty ("" searches everything).
    expect(call({ type: "object", properties: { query: { type: "string" } }, required: ["query"] }, {}).arguments).toEqual({ query: "" });
  });

  it("tells null (clear a filter) from leaving a field out", () => {
    expect(call(setFilters, {}).arguments).toEqual({});
    expect(call(setFilters, { maxPrice: "800", airline: JSON.stringify("Air China") }).arguments).toEqual({
      maxPrice: 800,
      airline: "Air China",
    });
    expect(call(setFilters, { maxPrice: null, maxStops: "0", airline: "null" }).arguments).toEqual({
      maxPrice: null,
      maxStops: 0,
      airline: null,
    });
    expect(call(setFilters, { maxPrice: "-5" }).errors).toEqual({ maxPrice: "Must be at least 0." });
  });

  it("sends a checkbox when it is required or differs from its default", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "boolean" }, b: { type: "boolean", default: true }, c: { type: "boolean" } },
      required: ["c"],
    };
    expect(call(schema, {}).arguments).toEqual({ c: false });
    expect(call(schema, { a: true, b: false, c: true }).arguments).toEqual({ a: true, b: false, c: true });
  });

  it("collects array rows with their item type, skipping empty rows", () => {
    const schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" } },
        sizes: { type: "array", items: { type: "integer" }, minItems: 1 },
        colours: { type: "array", items: { enum: ["red", "blue"] } },
      },
      required: ["sizes"],
    };
    expect(call(schema, { tags: ["a", "", "b, c"], sizes: ["38", "40"], colours: ['"blue"'] }).arguments).toEqual({
      tags: ["a", "b, c"],
      sizes: [38, 40],
      colours: ["blue"],
    });
    expect(call(schema, { tags: [""], sizes: [""] })).toEqual({
      arguments: {},
      errors: { sizes: "Needs at least 1 value." },
    });
    expect(call(schema, { sizes: ["38", "x"] }).errors).toEqual({ "sizes[1]": "Must be a number." });
  });

  it("builds nested objects, leaving out an optional one left empty", () => {
    const schema = {
      type: "object",
      properties: {
        passenger: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name"] },
        options: { type: "object", properties: { seat: { type: "string" } } },
      },
      required: ["passenger"],
    };
    expect(call(schema, { passenger: { name: "Ada", age: "36" } }).arguments).toEqual({ passenger: { name: "Ada", age: 36 } });
    expect(call(schema, { passenger: { name: "Ada", age: "" }, options: { seat: "" } }).arguments).toEqual({
      passenger: { name: "Ada" },
    });
    expect(call(schema, { passenger: { name: "Ada", age: "old" } }).errors).toEqual({ "passenger.age": "Must be a number." });
  });

  it("parses the JSON boxes", () => {
    const schema = { type: "object", properties: { filter: { oneOf: [{ type: "string" }, { type: "object" }] } } };
    expect(call(schema, { filter: '{"price": {"lt": 100}}' }).arguments).toEqual({ filter: { price: { lt: 100 } } });
    expect(call(schema, { filter: "{oops" }).errors).toEqual({ filter: "Not valid JSON." });
    expect(call(schema, { filter: "" }).arguments).toEqual({});
  });
});

describe("raw arguments and results", () => {
  it("takes one JSON object as the whole arguments", () => {
    expect(parseRawArguments('{"query": "mug"}')).toEqual({ arguments: { query: "mug" }, errors: {} });
    expect(parseRawArguments("  ")).toEqual({ arguments: {}, errors: {} });
    expect(parseRawArguments("[1, 2]").errors[""]).toMatch(/one JSON object/);
    expect(parseRawArguments("{nope").errors[""]).toMatch(/^Not valid JSON/);
  });

  it("shows a result as pretty JSON when it is JSON", () => {
    expect(prettyResult('{"shown":2,"total":5}')).toEqual({ text: '{\n  "shown": 2,\n  "total": 5\n}', json: true });
    expect(prettyResult("3 flights shown")).toEqual({ text: "3 flights shown", json: false });
    expect(prettyResult('{"cut": tr')).toEqual({ text: '{"cut": tr', json: false });
  });
});
