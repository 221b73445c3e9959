// Conversations, their settings and messages, and the files uploaded to them.

import type { Id } from "./id";
import type { Run, RunStatus } from "./runs";
import type { Role } from "./sharing";
import type { ConversationUsage } from "./usage";

/** `confirm`: ask before every page or SKILL tool that changes something; `auto`: run them without asking. */
export type ConfirmMode = "confirm" | "auto";

export interface Conversation {
  id: Id;
  title: string;
  created_at: string;
  updated_at: string;
  last_run_status: RunStatus | null;
  /** The model profile the agent uses; null = the server's default model. */
  model_profile?: Id | null;
  /** Record the model's reasoning as "thought" steps. */
  show_reasoning?: boolean;
  confirm_mode?: ConfirmMode;
  /** Keep every run as a Playwright trace (replays and failed agent turns keep theirs anyway). */
  trace_runs?: boolean;
  /** The owner's username. */
  owner?: string;
  /** The reader's access: their own, or shared with them as controller or viewer. */
  role?: Role;
  /** Someone else's conversation, shared with the reader. */
  shared?: boolean;
  /** What its model calls used and cost so far. */
  usage?: ConversationUsage;
}

/** The per-conversation settings (PATCH /api/conversations/<id>/, or with POST when creating one). */
export interface ConversationSettings {
  model_profile: Id | null;
  show_reasoning: boolean;
  confirm_mode: ConfirmMode;
  trace_runs: boolean;
}

export interface ConversationInput extends Partial<ConversationSettings> {
  title?: string;
}

export type MessageRole = "user" | "assistant" | "tool" | "system";

export interface Message {
  id: Id;
  conversation: Id;
  role: MessageRole;
  content: string;
  /** Who wrote a user message (a teammate with control writes in a shared conversation); null for the agent. */
  author?: string | null;
  run: Id | null;
  created_at: string;
}

export interface SendMessageBody {
  content: string;
  tab_ids?: string[];
}

export interface SendMessageResult {
  message: Message;
  run: Run;
}

/** A file uploaded to a conversation (POST /api/conversations/<id>/files/); the agent's `upload_file` takes its id. */
/** A file of the conversation as the API lists it: one a person uploaded or one its browser downloaded. */
export interface ConversationFile {
  id: Id;
  name: string;
  size: number;
  /** Sniffed from the bytes by the server, never taken from the page. */
  content_type: string;
  origin: "upload" | "download";
  created_at: string;
  /** Where its bytes are served, as an attachment, to whoever may read the conversation. */
  url: string;
  /** Where a download came from ("" for an upload). */
  source_url: string;
  /** The run and step that downloaded it. */
  run: Id | null;
  step: Id | null;
}

export interface UploadedFile {
  id: Id;
  name: string;
  size: number;
}
