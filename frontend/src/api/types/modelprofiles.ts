// Model profiles (GET/POST /api/model-profiles/, GET/PATCH/DELETE /api/model-profiles/<id>/) and provider presets.

import type { Id } from "./id";

export type ProviderId = "openai" | "deepseek" | "qwen" | "glm" | "moonshot" | "ollama" | "custom";

export interface ModelCapabilities {
  supports_tools: boolean;
  supports_vision: boolean;
  parallel_tool_calls: boolean;
}

export interface ModelProfile extends ModelCapabilities {
  id: Id;
  name: string;
  /** A ProviderId, or one this dashboard does not know yet. */
  provider: string;
  base_url: string;
  model: string;
  /** The key itself never comes back. */
  has_api_key: boolean;
  /** The provider's embeddings model, to find saved notes by meaning; "" finds them by their words. */
  embedding_model?: string;
  fallback: Id | null;
  created_at: string;
  updated_at: string;
}

/** A create (all but `api_key` and capabilities required) or a partial update. `api_key: ""` removes the key. */
export interface ModelProfileInput extends Partial<ModelCapabilities> {
  name?: string;
  provider?: string;
  base_url?: string;
  model?: string;
  api_key?: string;
  embedding_model?: string;
  fallback?: Id | null;
}

/** A provider preset: where the service lives and what its models can usually do. */
export interface ModelProvider extends ModelCapabilities {
  id: string;
  label: string;
  base_url: string;
}

export interface ServerDefaultModel {
  base_url: string;
  model: string;
}

/** GET /api/model-providers/ */
export interface ModelProviders {
  providers: ModelProvider[];
  server_default: ServerDefaultModel | null;
}

/** POST /api/model-profiles/<id>/test/ */
export interface ConnectionCheck {
  ok: boolean;
  detail: string;
  latency_ms: number;
}
