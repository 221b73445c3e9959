import { describe, expect, it } from "vitest";
import type { Note, Persona } from "../api/types";
import { NOTE_FIELDS, PERSONA_FIELDS, recordBody, recordForm, sortNotes, sortPersonas, validateRecord } from "./memory/records";

const note = (id: number, title: string, updated: string): Note => ({
  id,
  title,
  body: `body ${id}`,
  created_at: "2025-01-01T00:00:00Z",
  updated_at: updated,
});
const persona = (id: number, name: string): Persona => ({
  id,
  name,
  voice: "warm",
  instructions: "",
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
});

describe("notes and personas", () => {
  it("checks the required fields before sending", () => {
    expect(validateRecord(NOTE_FIELDS, { title: "  ", body: "x" })).toEqual({ title: "Title is required." });
    expect(validateRecord(PERSONA_FIELDS, { name: "Desk", voice: "calm", instructions: "" })).toEqual({});
    expect(validateRecord(PERSONA_FIELDS, { name: "Desk", voice: "", instructions: "" })).toEqual({ voice: "Voice is required." });
    expect(validateRecord(NOTE_FIELDS, { title: "t", body: "x".repeat(20_001) }).body).toMatch(/at most 20,000/);
  });

  it("sends every field when creating, only what changed when editing, trimmed", () => {
    expect(recordBody(NOTE_FIELDS, { title: " Passport ", body: "No. 123 " })).toEqual({ title: "Passport", body: "No. 123" });
    const stored = note(1, "Passport", "2025-01-01T00:00:00Z");
    const form = recordForm(NOTE_FIELDS, stored);
    expect(form).toEqual({ title: "Passport", body: "body 1" });
    expect(recordBody(NOTE_FIELDS, { ...form, body: "body 2" }, stored)).toEqual({ body: "body 2" });
    expect(recordForm(PERSONA_FIELDS)).toEqual({ name: "", voice: "", instructions: "" });
  });

  it("lists notes newest first and personas by name, as the server does", () => {
    const notes = sortNotes([note(1, "a", "2025-01-01T00:00:00Z"), note(2, "b", "2025-01-02T00:00:00Z")]);
    expect(notes.map((n) => n.id)).toEqual([2, 1]);
    expect(sortPersonas([persona(1, "Zed"), persona(2, "Ann")]).map((p) => p.name)).toEqual(["Ann", "Zed"]);
  });
});
