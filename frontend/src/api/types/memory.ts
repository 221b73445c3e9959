// Notes (the agent's memory, found with search_memory) and personas (voices for generate_reply).

import type { Id } from "./id";

export interface Note {
  id: Id;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface NoteInput {
  title?: string;
  body?: string;
}

export interface Persona {
  id: Id;
  name: string;
  voice: string;
  instructions: string;
  created_at: string;
  updated_at: string;
}

export interface PersonaInput {
  name?: string;
  voice?: string;
  instructions?: string;
}
