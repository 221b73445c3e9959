// Notes and personas as forms: their fields, a form from a stored record, what is missing, what changed.

import type { Note, Persona } from "../../api/types";

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
