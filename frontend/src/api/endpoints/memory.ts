// Notes (the agent's memory) and personas.

import type { Request } from "../http";
import type { Id, Note, NoteInput, Persona, PersonaInput } from "../types";

export type MemoryApi = ReturnType<typeof memoryApi>;

export function memoryApi(request: Request) {
  return {
    listNotes(): Promise<Note[]> {
      return request<Note[]>("GET", "/notes/");
    },
    createNote(body: NoteInput): Promise<Note> {
      return request<Note>("POST", "/notes/", body);
    },
    updateNote(id: Id, body: NoteInput): Promise<Note> {
      return request<Note>("PATCH", `/notes/${id}/`, body);
    },
    deleteNote(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/notes/${id}/`);
    },
    listPersonas(): Promise<Persona[]> {
      return request<Persona[]>("GET", "/personas/");
    },
    createPersona(body: PersonaInput): Promise<Persona> {
      return request<Persona>("POST", "/personas/", body);
    },
    updatePersona(id: Id, body: PersonaInput): Promise<Persona> {
      return request<Persona>("PATCH", `/personas/${id}/`, body);
    },
    deletePersona(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/personas/${id}/`);
    },
  };
}
