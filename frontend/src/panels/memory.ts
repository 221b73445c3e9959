// Settings: notes (the agent's memory, which it searches with search_memory) and personas (voices that
// generate_reply writes in). Both are a list with a form to add one, or edit the one chosen, and a delete
// button on each (GET/POST /api/notes/, PATCH/DELETE /api/notes/<id>/; the same under /api/personas/).

import type { ApiClient } from "../api/client";
import type { Note, Persona } from "../api/types";
import { NOTE_FIELDS, PERSONA_FIELDS, sortNotes, sortPersonas } from "./memory/records";
import { RecordSection } from "./memory/section";

/** The notes section: what the agent finds again with search_memory. */
export function notesSection(api: ApiClient): RecordSection<Note> {
  return new RecordSection<Note>({
    prefix: "note",
    noun: "note",
    heading: "Notes",
    lead: "Things the agent should remember: it searches your notes with search_memory when a task needs them.",
    empty: "No notes yet. Add one with the form below: an address, a preference, anything the agent should know.",
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
    empty: "No personas yet. Add one with the form below, then ask the agent to write a reply in its voice.",
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
