// WebMCP tools of the active tab (GET /api/conversations/<id>/tools/, `tools.updated`) and the SKILLs that add
// tools, switched per conversation.

import type { Id } from "./id";

/** The page's hints about a tool: hints only, never a grant of trust. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
}

export interface WebTool {
  name: string;
  title: string;
  description: string;
  /** "page": the page registered it; "skill": a SKILL did (named in `skill`). */
  source: "page" | "skill";
  skill: string | null;
  /** A JSON Schema for the tool's arguments (usually an object schema); may be null. */
  input_schema: unknown;
  annotations: ToolAnnotations | null;
  /** A SKILL tool hidden by the page's own tool of the same name. */
  shadowed: boolean;
}

export type SkillHealth = "ok" | "failed" | "off";

/** A SKILL matching the active tab, and how its health check went. */
export interface SkillStatus {
  name: string;
  version: string;
  status: SkillHealth;
  error: string;
}

export interface PageTools {
  /** The active tab's id, or null when there is none. */
  tab: string | null;
  tools: WebTool[];
  skills: SkillStatus[];
}

export interface SkillTool {
  name: string;
  title: string;
  description: string;
  input_schema: unknown;
  annotations: unknown;
}

/** A SKILL of the library with this conversation's switch (GET /api/conversations/<id>/skills/). */
export interface ConversationSkill {
  id: Id;
  name: string;
  version: string;
  description: string;
  match_patterns: string[];
  priority: number;
  tools: SkillTool[];
  enabled_here: boolean;
}

/** POST /api/conversations/<id>/tools/call/ */
export interface ToolCallBody {
  name: string;
  arguments: Record<string, unknown>;
}
