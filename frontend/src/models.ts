// Pure logic for model profiles and the per-conversation model choice: the profile form's defaults, what
// changes when the provider changes, the request bodies, and the options of the model selector. No DOM.

import type {
  ConversationSettings,
  Id,
  ModelCapabilities,
  ModelProfile,
  ModelProfileInput,
  ModelProvider,
} from "./api/types";
import type { ModelsState } from "./state";

/** What the profile form edits. `api_key` is only ever typed in: the stored key never comes back. */
export interface ProfileForm extends ModelCapabilities {
  name: string;
  provider: string;
  base_url: string;
  model: string;
  api_key: string;
  /** The provider's embeddings model, to rank saved notes by meaning ("" ranks them by their words). */
  embedding_model: string;
  fallback: Id | null;
}

/**
 * An unknown server is asked, not assumed blind: tool calling starts on (most OpenAI-compatible servers take
 * tools, and the agent works far better with them), and the form says how to tell when it must be turned off.
 */
export const CUSTOM_CAPABILITIES: ModelCapabilities = {
  supports_tools: true,
  supports_vision: false,
  parallel_tool_calls: false,
};
export const CUSTOM_PROVIDER = "custom";

export const PREFERRED_PROVIDER = "openai";

export function findProvider(providers: readonly ModelProvider[], id: string): ModelProvider | undefined {
  return providers.find((p) => p.id === id);
}

export function providerLabel(providers: readonly ModelProvider[], id: string): string {
  return findProvider(providers, id)?.label ?? id;
}

/** What a provider's models can do: its preset, except that a custom server starts with tool calling on. */
function presetCapabilities(provider: ModelProvider): ModelCapabilities {
  return provider.id === CUSTOM_PROVIDER ? CUSTOM_CAPABILITIES : capabilitiesOf(provider);
}

function capabilitiesOf(source: ModelCapabilities): ModelCapabilities {
  return {
    supports_tools: source.supports_tools,
    supports_vision: source.supports_vision,
    parallel_tool_calls: source.parallel_tool_calls,
  };
}

/** A blank form for a new profile: the preferred provider (else the first) with its URL and capabilities. */
export function newProfileForm(providers: readonly ModelProvider[], preferred: string = PREFERRED_PROVIDER): ProfileForm {
  const provider = findProvider(providers, preferred) ?? providers[0];
  return {
    name: "",
    provider: provider?.id ?? CUSTOM_PROVIDER,
    base_url: provider?.base_url ?? "",
    model: "",
    api_key: "",
    ...(provider ? presetCapabilities(provider) : CUSTOM_CAPABILITIES),
    embedding_model: "",
    fallback: null,
  };
}

/** The form for editing a stored profile (the key field starts empty: leaving it so keeps the key). */
export function profileFormFrom(profile: ModelProfile): ProfileForm {
  return {
    name: profile.name,
    provider: profile.provider,
    base_url: profile.base_url,
    model: profile.model,
    api_key: "",
    ...capabilitiesOf(profile),
    embedding_model: profile.embedding_model ?? "",
    fallback: profile.fallback,
  };
}

/**
 * The form after choosing another provider: its capabilities, and its default base URL unless the user typed
 * their own (a URL that is empty or some provider's default counts as not typed).
 */
export function withProvider(form: ProfileForm, providerId: string, providers: readonly ModelProvider[]): ProfileForm {
  const provider = findProvider(providers, providerId);
  if (!provider) return { ...form, provider: providerId };
  const url = form.base_url.trim();
  const untouched = url === "" || providers.some((p) => p.base_url !== "" && p.base_url === url);
  return {
    ...form,
    provider: provider.id,
    base_url: untouched ? provider.base_url : form.base_url,
    ...presetCapabilities(provider),
  };
}

/** Client-side checks before sending, by field (the server checks again, e.g. that the URL is valid). */
export function validateProfileForm(form: ProfileForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.name.trim()) errors.name = "Give the profile a name.";
  if (!form.model.trim()) errors.model = "Enter the model's name, e.g. gpt-4o-mini.";
  if (!form.base_url.trim()) errors.base_url = "Enter the base URL of the OpenAI-compatible API.";
  return errors;
}

const EDITABLE = [
  "name",
  "provider",
  "base_url",
  "model",
  "supports_tools",
  "supports_vision",
  "parallel_tool_calls",
  "embedding_model",
  "fallback",
] as const;

/**
 * The request body. Creating sends every field (the key only when typed); editing sends what changed, and
 * the key only when a new one was typed (an empty field keeps the stored key; removing it is its own action).
 */
export function profileBody(form: ProfileForm, original?: ModelProfile): ModelProfileInput {
  const clean: ProfileForm = {
    ...form,
    name: form.name.trim(),
    base_url: form.base_url.trim(),
    model: form.model.trim(),
    api_key: form.api_key.trim(),
    embedding_model: form.embedding_model.trim(),
  };
  const body: ModelProfileInput = {};
  const out = body as Record<string, unknown>;
  for (const key of EDITABLE) {
    if (clean[key] !== original?.[key]) out[key] = clean[key];
  }
  if (clean.api_key) body.api_key = clean.api_key;
  return body;
}

/** Profiles that can be the fallback of `editingId` (any other profile of the user). */
export function fallbackChoices(profiles: readonly ModelProfile[], editingId: Id | null): ModelProfile[] {
  return profiles.filter((p) => p.id !== editingId);
}

/** After deleting a profile, the ones that fell back to it fall back to nothing (the server does the same). */
export function withoutProfile(profiles: readonly ModelProfile[], id: Id): ModelProfile[] {
  return profiles.filter((p) => p.id !== id).map((p) => (p.fallback === id ? { ...p, fallback: null } : p));
}

/** Inserts or replaces a profile, keeping the server's order (by name, then id). */
export function upsertProfile(profiles: readonly ModelProfile[], profile: ModelProfile): ModelProfile[] {
  const rest = profiles.filter((p) => p.id !== profile.id);
  return [...rest, profile].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

// --- The conversation's model ---

export interface ModelOption {
  /** "" for the server default, else the profile id. */
  value: string;
  label: string;
}

export const SERVER_DEFAULT_VALUE = "";

export function modelOptions(models: Pick<ModelsState, "profiles" | "serverDefault">): ModelOption[] {
  const serverDefault = models.serverDefault
    ? `Server default · ${models.serverDefault.model}`
    : "Server default (none configured)";
  return [
    { value: SERVER_DEFAULT_VALUE, label: serverDefault },
    ...models.profiles.map((p) => ({ value: String(p.id), label: `${p.name} · ${p.model}` })),
  ];
}

export function modelValue(profileId: Id | null | undefined): string {
  return profileId === null || profileId === undefined ? SERVER_DEFAULT_VALUE : String(profileId);
}

export function parseModelValue(value: string): Id | null {
  if (value === SERVER_DEFAULT_VALUE) return null;
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** No profile and no server default: no turn can run. */
export function noModelConfigured(models: Pick<ModelsState, "loaded" | "profiles" | "serverDefault">): boolean {
  return models.loaded && models.profiles.length === 0 && !models.serverDefault;
}

/** The conversation would use the server default, but there is none (while the user has profiles). */
export function needsModelChoice(
  models: Pick<ModelsState, "loaded" | "profiles" | "serverDefault">,
  profileId: Id | null | undefined,
): boolean {
  return models.loaded && !models.serverDefault && models.profiles.length > 0 && (profileId ?? null) === null;
}

/**
 * Settings for a conversation started from the home page: the server default when there is one, else the
 * user's first profile (so the first message has a model to go to).
 */
export function defaultConversationSettings(
  models: Pick<ModelsState, "loaded" | "profiles" | "serverDefault">,
): ConversationSettings {
  const firstProfile = models.profiles[0];
  const model_profile = models.loaded && !models.serverDefault && firstProfile ? firstProfile.id : null;
  return { model_profile, show_reasoning: false, confirm_mode: "auto", trace_runs: false };
}

/** The settings a conversation shows (fields missing from an older server read as their defaults). */
export function conversationSettings(conversation: {
  model_profile?: Id | null;
  show_reasoning?: boolean;
  confirm_mode?: ConversationSettings["confirm_mode"];
  trace_runs?: boolean;
}): ConversationSettings {
  return {
    model_profile: conversation.model_profile ?? null,
    show_reasoning: conversation.show_reasoning ?? false,
    confirm_mode: conversation.confirm_mode ?? "auto",
    trace_runs: conversation.trace_runs ?? false,
  };
}
