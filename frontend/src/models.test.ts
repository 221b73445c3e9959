import { describe, expect, it } from "vitest";
import type { ModelProfile, ModelProvider } from "./api/types";
import {
  conversationSettings,
  defaultConversationSettings,
  fallbackChoices,
  modelOptions,
  modelValue,
  needsModelChoice,
  newProfileForm,
  noModelConfigured,
  parseModelValue,
  profileBody,
  profileFormFrom,
  upsertProfile,
  validateProfileForm,
  withProvider,
  withoutProfile,
} from "./models";

const PROVIDERS: ModelProvider[] = [
  { id: "openai", label: "OpenAI", base_url: "https://api.openai.com/v1", supports_tools: true, supports_vision: true, parallel_tool_calls: true },
  { id: "deepseek", label: "DeepSeek", base_url: "https://api.deepseek.com/v1", supports_tools: true, supports_vision: false, parallel_tool_calls: false },
  { id: "ollama", label: "Ollama", base_url: "http://localhost:11434/v1", supports_tools: false, supports_vision: false, parallel_tool_calls: false },
  { id: "custom", label: "Custom", base_url: "", supports_tools: false, supports_vision: false, parallel_tool_calls: false },
];

function profile(id: number, name: string, extra: Partial<ModelProfile> = {}): ModelProfile {
  return {
    id,
    name,
    provider: "openai",
    base_url: "https://api.openai.com/v1",
    model: "gpt-4o-mini",
    has_api_key: true,
    supports_tools: true,
    supports_vision: true,
    parallel_tool_calls: true,
    embedding_model: "",
    fallback: null,
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    ...extra,
  };
}

describe("profile form defaults", () => {
  it("starts a new profile on the preferred provider with its URL and capabilities", () => {
    expect(newProfileForm(PROVIDERS)).toEqual({
      name: "",
      provider: "openai",
      base_url: "https://api.openai.com/v1",
      model: "",
      api_key: "",
      supports_tools: true,
      supports_vision: true,
      parallel_tool_calls: true,
      embedding_model: "",
      fallback: null,
    });
    expect(newProfileForm(PROVIDERS, "ollama")).toMatchObject({ provider: "ollama", base_url: "http://localhost:11434/v1", supports_tools: false });
    // No presets (not loaded yet): a custom, empty form, which asks with tool calling on.
    expect(newProfileForm([])).toMatchObject({ provider: "custom", base_url: "", supports_tools: true });
  });

  it("edits a stored profile without its key", () => {
    const form = profileFormFrom(profile(3, "Main", { fallback: 2, supports_vision: false }));
    expect(form).toMatchObject({ name: "Main", api_key: "", fallback: 2, supports_vision: false });
  });

  it("prefills the URL and capabilities when the provider changes, keeping a URL the user typed", () => {
    const form = newProfileForm(PROVIDERS);
    const deepseek = withProvider(form, "deepseek", PROVIDERS);
    expect(deepseek).toMatchObject({
      provider: "deepseek",
      base_url: "https://api.deepseek.com/v1",
      supports_tools: true,
      supports_vision: false,
      parallel_tool_calls: false,
    });
    // Custom has no default URL: a preset's URL is cleared, so nobody sends to the wrong service by accident.
    expect(withProvider(deepseek, "custom", PROVIDERS).base_url).toBe("");
    // Every preset ticks what its provider can do; a custom server starts with tool calling on (the preset says
    // nothing), vision and parallel calls off.
    expect(withProvider(form, "ollama", PROVIDERS)).toMatchObject({ supports_tools: false, supports_vision: false });
    expect(withProvider(deepseek, "custom", PROVIDERS)).toMatchObject({
      supports_tools: true,
      supports_vision: false,
      parallel_tool_calls: false,
    });
    expect(withProvider(withProvider(form, "custom", PROVIDERS), "openai", PROVIDERS)).toMatchObject({
      supports_tools: true,
      supports_vision: true,
      parallel_tool_calls: true,
    });
    const typed = { ...form, base_url: "https://proxy.example/v1" };
    expect(withProvider(typed, "deepseek", PROVIDERS).base_url).toBe("https://proxy.example/v1");
    expect(withProvider({ ...form, base_url: "  " }, "ollama", PROVIDERS).base_url).toBe("http://localhost:11434/v1");
  });

  it("checks the required fields", () => {
    expect(Object.keys(validateProfileForm(newProfileForm(PROVIDERS)))).toEqual(["name", "model"]);
    expect(Object.keys(validateProfileForm(newProfileForm([])))).toEqual(["name", "model", "base_url"]);
    expect(validateProfileForm({ ...newProfileForm(PROVIDERS), name: "A", model: "m" })).toEqual({});
  });
});

describe("profile request bodies", () => {
  it("creates with every field, and the key only when one was typed", () => {
    const form = { ...newProfileForm(PROVIDERS), name: " Main ", model: "gpt-4o" };
    expect(profileBody(form)).toEqual({
      name: "Main",
      provider: "openai",
      base_url: "https://api.openai.com/v1",
      model: "gpt-4o",
      supports_tools: true,
      supports_vision: true,
      parallel_tool_calls: true,
      embedding_model: "",
      fallback: null,
    });
    expect(profileBody({ ...form, api_key: "sk-1" }).api_key).toBe("sk-1");
    expect(profileBody({ ...form, embedding_model: " text-embedding-3-small " }).embedding_model).toBe(
      "text-embedding-3-small",
    );
  });

  it("edits only what changed; an empty key field keeps the stored key", () => {
    const stored = profile(3, "Main");
    const form = profileFormFrom(stored);
    expect(profileBody(form, stored)).toEqual({});
    expect(profileBody({ ...form, model: "gpt-4o", fallback: 2 }, stored)).toEqual({ model: "gpt-4o", fallback: 2 });
    expect(profileBody({ ...form, api_key: "sk-new" }, stored)).toEqual({ api_key: "sk-new" });
    expect(profileBody({ ...form, api_key: "   " }, stored)).not.toHaveProperty("api_key");
  });
});

describe("profile lists", () => {
  it("offers every other profile as the fallback", () => {
    const profiles = [profile(1, "A"), profile(2, "B")];
    expect(fallbackChoices(profiles, 1).map((p) => p.id)).toEqual([2]);
    expect(fallbackChoices(profiles, null).map((p) => p.id)).toEqual([1, 2]);
  });

  it("drops a deleted profile and the fallbacks that pointed at it", () => {
    const profiles = [profile(1, "A"), profile(2, "B", { fallback: 1 })];
    expect(withoutProfile(profiles, 1)).toEqual([{ ...profiles[1], fallback: null }]);
  });

  it("keeps the server's order (by name) when a profile is added or renamed", () => {
    const profiles = [profile(1, "Alpha"), profile(2, "Gamma")];
    expect(upsertProfile(profiles, profile(3, "Beta")).map((p) => p.id)).toEqual([1, 3, 2]);
    expect(upsertProfile(profiles, profile(1, "Zeta")).map((p) => p.id)).toEqual([2, 1]);
  });
});

describe("the conversation's model", () => {
  const none = { loaded: true, profiles: [], serverDefault: null };
  const withDefault = { loaded: true, profiles: [profile(4, "Mine")], serverDefault: { base_url: "http://x/v1", model: "local-m" } };
  const onlyProfiles = { loaded: true, profiles: [profile(4, "Mine"), profile(5, "Other")], serverDefault: null };

  it("lists the server default first, then the profiles", () => {
    expect(modelOptions(withDefault)).toEqual([
      { value: "", label: "Server default · local-m" },
      { value: "4", label: "Mine · gpt-4o-mini" },
    ]);
    expect(modelOptions(none)[0]?.label).toBe("Server default (none configured)");
  });

  it("maps null to the server default and back", () => {
    expect(modelValue(null)).toBe("");
    expect(modelValue(undefined)).toBe("");
    expect(modelValue(7)).toBe("7");
    expect(parseModelValue("")).toBeNull();
    expect(parseModelValue("7")).toBe(7);
    expect(parseModelValue("nope")).toBeNull();
  });

  it("says when no model is configured, or when the conversation must pick one", () => {
    expect(noModelConfigured(none)).toBe(true);
    expect(noModelConfigured({ ...none, loaded: false })).toBe(false);
    expect(noModelConfigured(withDefault)).toBe(false);
    expect(needsModelChoice(onlyProfiles, null)).toBe(true);
    expect(needsModelChoice(onlyProfiles, 4)).toBe(false);
    expect(needsModelChoice(withDefault, null)).toBe(false);
  });

  it("starts new conversations on the server default, else on the first profile", () => {
    expect(defaultConversationSettings(withDefault)).toEqual({
      model_profile: null,
      show_reasoning: false,
      confirm_mode: "auto",
      trace_runs: false,
    });
    expect(defaultConversationSettings(onlyProfiles).model_profile).toBe(4);
    expect(defaultConversationSettings(none).model_profile).toBeNull();
  });

  it("reads a conversation's settings, defaulting what an older server leaves out", () => {
    expect(conversationSettings({})).toEqual({
      model_profile: null,
      show_reasoning: false,
      confirm_mode: "auto",
      trace_runs: false,
    });
    expect(
      conversationSettings({ model_profile: 3, show_reasoning: true, confirm_mode: "confirm", trace_runs: true }),
    ).toEqual({ model_profile: 3, show_reasoning: true, confirm_mode: "confirm", trace_runs: true });
  });
});
