// The model profile form: name, provider, base URL, model, API key (never shown back), capabilities (a provider's
// preset ticks them; a custom server is asked, tool calling first on), an embeddings model and a fallback; it
// validates before saving and shows the server's refusals by field.

import type { ApiClient } from "../../api/client";
import { errorText } from "../../errors";
import type { Id, ModelProfile, ModelProvider } from "../../api/types";
import { h, icon, ICONS, replaceChildren, setText } from "../../dom";
import { FormErrors } from "../formerrors";
import { PriceFields } from "./price";
import {
  CUSTOM_PROVIDER,
  fallbackChoices,
  newProfileForm,
  profileBody,
  profileFormFrom,
  validateProfileForm,
  withProvider,
  type ProfileForm,
} from "../../models";

const CAPABILITIES: { key: "supports_tools" | "supports_vision" | "parallel_tool_calls"; label: string; hint: string }[] = [
  { key: "supports_tools", label: "Tool calling", hint: "The API takes tools (else the agent writes its calls as JSON)." },
  { key: "supports_vision", label: "Vision", hint: "The model can look at screenshots." },
  { key: "parallel_tool_calls", label: "Parallel tool calls", hint: "Several tool calls in one reply." },
];

export type FormMode = { kind: "create" } | { kind: "edit"; profile: ModelProfile };

export class ProfileFormView {
  readonly el: HTMLFormElement;
  private readonly heading: HTMLElement;
  private readonly inputs: {
    name: HTMLInputElement;
    provider: HTMLSelectElement;
    base_url: HTMLInputElement;
    model: HTMLInputElement;
    api_key: HTMLInputElement;
    embedding_model: HTMLInputElement;
    fallback: HTMLSelectElement;
  };
  /** Under the capabilities for a custom server: why tool calling is on, and when to turn it off. */
  private readonly customNote = h(
    "span",
    { class: "field-hint caps-note", "data-testid": "profile-custom-note" },
    "A custom server: tool calling is on, as most take tools (vLLM needs --enable-auto-tool-choice); " +
      "turn it off if Test connection says the service refused them.",
  );
  private readonly caps: Record<(typeof CAPABILITIES)[number]["key"], HTMLInputElement>;
  private readonly errors = new FormErrors();
  private readonly price = new PriceFields((name, input) => this.errors.slot(name, input));
  private readonly keyState: HTMLElement;
  private readonly removeKey: HTMLButtonElement;
  private readonly keyHint: HTMLElement;
  private readonly submit: HTMLButtonElement;
  private mode: FormMode = { kind: "create" };
  private form: ProfileForm = newProfileForm([]);
  private providers: ModelProvider[] = [];
  private profiles: ModelProfile[] = [];
  private busy = false;

  constructor(
    private readonly api: ApiClient,
    /** A profile was stored; `keepOpen` after removing its key (the form stays on it). */
    private readonly onSaved: (profile: ModelProfile, keepOpen: boolean) => void,
    private readonly onCancel: () => void,
  ) {
    this.inputs = {
      name: h("input", { name: "name", type: "text", maxlength: "100", autocomplete: "off", placeholder: "e.g. GPT-4o mini" }),
      provider: h("select", { name: "provider" }),
      base_url: h("input", { name: "base_url", type: "url", maxlength: "500", autocomplete: "off", spellcheck: "false" }),
      model: h("input", { name: "model", type: "text", maxlength: "200", autocomplete: "off", spellcheck: "false", placeholder: "e.g. gpt-4o-mini" }),
      api_key: h("input", { name: "api_key", type: "password", maxlength: "500", autocomplete: "new-password", spellcheck: "false" }),
      embedding_model: h("input", { name: "embedding_model", type: "text", maxlength: "200", autocomplete: "off", spellcheck: "false", placeholder: "e.g. text-embedding-3-small" }),
      fallback: h("select", { name: "fallback" }),
    };
    this.caps = {
      supports_tools: h("input", { type: "checkbox", name: "supports_tools" }),
      supports_vision: h("input", { type: "checkbox", name: "supports_vision" }),
      parallel_tool_calls: h("input", { type: "checkbox", name: "parallel_tool_calls" }),
    };
    for (const key of ["name", "base_url", "model", "api_key", "embedding_model"] as const) {
      this.inputs[key].addEventListener("input", () => {
        this.form = { ...this.form, [key]: this.inputs[key].value };
        this.errors.hide(key);
      });
    }
    this.inputs.provider.addEventListener("change", () => {
      this.form = withProvider(this.form, this.inputs.provider.value, this.providers);
      this.renderValues();
    });
    this.inputs.fallback.addEventListener("change", () => {
      const value = this.inputs.fallback.value;
      this.form = { ...this.form, fallback: value ? Number(value) : null };
    });
    for (const { key } of CAPABILITIES) {
      this.caps[key].addEventListener("change", () => (this.form = { ...this.form, [key]: this.caps[key].checked }));
    }
    this.heading = h("h3", null);
    this.keyState = h("span", { class: "chip chip-ok", "data-testid": "profile-key-saved" }, icon(ICONS.key, 12), "Key saved");
    this.removeKey = h(
      "button",
      { class: "link-button danger", type: "button", "data-testid": "profile-remove-key", onclick: () => void this.doRemoveKey() },
      "Remove key",
    );
    this.keyHint = h("span", { class: "field-hint" });
    this.submit = h("button", { class: "btn btn-primary", type: "submit", "data-testid": "profile-save" }, "Save");
    const fieldError = (name: string): HTMLElement =>
      this.errors.slot(name, (this.inputs as Record<string, HTMLElement | undefined>)[name] ?? null);
    const field = (label: string, control: HTMLElement, name: string, ...extra: (HTMLElement | null)[]): HTMLElement =>
      h("label", { class: "field" }, h("span", { class: "field-label" }, label), control, ...extra, fieldError(name));

    this.el = h(
      "form",
      {
        class: "profile-form card",
        "data-testid": "profile-form",
        novalidate: true,
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.save();
        },
      },
      this.heading,
      h(
        "div",
        { class: "form-grid" },
        field("Name", this.inputs.name, "name"),
        field("Provider", this.inputs.provider, "provider"),
        field("Base URL", this.inputs.base_url, "base_url", h("span", { class: "field-hint" }, "Filled in from the provider; any OpenAI-compatible endpoint works.")),
        field("Model", this.inputs.model, "model"),
        h(
          "div",
          { class: "field field-wide" },
          h("span", { class: "field-label" }, "API key ", this.keyState, " ", this.removeKey),
          this.inputs.api_key,
          this.keyHint,
          fieldError("api_key"),
        ),
        h(
          "fieldset",
          { class: "field field-wide caps" },
          h("legend", { class: "field-label" }, "What the model can do"),
          ...CAPABILITIES.map(({ key, label, hint }) =>
            h("label", { class: "check", title: hint }, this.caps[key], h("span", null, label), h("span", { class: "field-hint" }, hint)),
          ),
          this.customNote,
          fieldError("supports_tools"),
        ),
        field(
          "Embeddings model",
          this.inputs.embedding_model,
          "embedding_model",
          h("span", { class: "field-hint" }, "Optional: the agent then finds your saved notes by meaning; empty finds them by their words."),
        ),
        field(
          "Fallback",
          this.inputs.fallback,
          "fallback",
          h("span", { class: "field-hint" }, "Used when this model fails or can't be reached."),
        ),
        this.price.el,
      ),
      this.errors.box,
      h(
        "div",
        { class: "form-actions" },
        h("button", { class: "btn btn-ghost", type: "button", "data-testid": "profile-cancel", onclick: () => this.onCancel() }, "Cancel"),
        this.submit,
      ),
    );
  }

  get editingId(): Id | null {
    return this.mode.kind === "edit" ? this.mode.profile.id : null;
  }

  get isCreating(): boolean {
    return this.mode.kind === "create";
  }

  /** `focus`: put the cursor in the name field; a form that opened by itself leaves the person's cursor alone. */
  open(mode: FormMode, providers: ModelProvider[], profiles: ModelProfile[], focus = true): void {
    this.mode = mode;
    this.providers = providers;
    this.profiles = profiles;
    this.form = mode.kind === "edit" ? profileFormFrom(mode.profile) : newProfileForm(providers);
    this.errors.clear();
    this.price.set(mode.kind === "edit" ? mode.profile : null);
    this.renderOptions();
    this.renderValues();
    if (focus) this.inputs.name.focus();
  }

  /** New providers or profiles (the fallback list) while the form is open; the typed values stay. */
  refresh(providers: ModelProvider[], profiles: ModelProfile[]): void {
    this.providers = providers;
    this.profiles = profiles;
    if (this.mode.kind === "edit") {
      const id = this.mode.profile.id;
      const fresh = profiles.find((p) => p.id === id);
      if (fresh) this.mode = { kind: "edit", profile: fresh };
    }
    this.renderOptions();
    this.renderKey();
  }

  private renderOptions(): void {
    const providers = this.providers.length ? this.providers : [{ id: this.form.provider, label: this.form.provider }];
    const providerKey = providers.map((p) => p.id).join();
    if (this.inputs.provider.dataset.key !== providerKey) {
      this.inputs.provider.dataset.key = providerKey;
      replaceChildren(this.inputs.provider, ...providers.map((p) => h("option", { value: p.id }, p.label)));
    }
    const choices = fallbackChoices(this.profiles, this.editingId);
    replaceChildren(
      this.inputs.fallback,
      h("option", { value: "" }, "No fallback"),
      ...choices.map((p) => h("option", { value: String(p.id) }, `${p.name} · ${p.model}`)),
    );
    this.inputs.fallback.value = this.form.fallback === null ? "" : String(this.form.fallback);
    this.inputs.provider.value = this.form.provider;
  }

  private renderValues(): void {
    setText(this.heading, this.mode.kind === "edit" ? `Edit “${this.mode.profile.name}”` : "Add a model");
    setText(this.submit, this.mode.kind === "edit" ? "Save changes" : "Add model");
    this.inputs.name.value = this.form.name;
    this.inputs.provider.value = this.form.provider;
    this.inputs.base_url.value = this.form.base_url;
    this.inputs.base_url.placeholder = "https://…/v1";
    this.inputs.model.value = this.form.model;
    this.inputs.api_key.value = this.form.api_key;
    this.inputs.embedding_model.value = this.form.embedding_model;
    this.customNote.hidden = this.form.provider !== CUSTOM_PROVIDER;
    this.inputs.fallback.value = this.form.fallback === null ? "" : String(this.form.fallback);
    for (const { key } of CAPABILITIES) this.caps[key].checked = this.form[key];
    this.renderKey();
  }

  private renderKey(): void {
    const saved = this.mode.kind === "edit" && this.mode.profile.has_api_key;
    this.keyState.hidden = !saved;
    this.removeKey.hidden = !saved;
    this.inputs.api_key.placeholder = saved ? "Key saved — leave empty to keep it" : "Optional for local servers";
    setText(
      this.keyHint,
      saved
        ? "Type a new key to replace the saved one. Keys are stored encrypted and never shown again."
        : "Stored encrypted; it is never shown again.",
    );
  }

  private async save(): Promise<void> {
    if (this.busy) return;
    this.errors.clear();
    const price = this.price.read();
    const invalid: Record<string, string> = { ...validateProfileForm(this.form), ...price.errors };
    if (Object.keys(invalid).length) {
      this.errors.show(Object.fromEntries(Object.entries(invalid).map(([k, v]) => [k, [v]])));
      const first = Object.keys(invalid).find((key): key is keyof typeof this.inputs => key in this.inputs);
      if (first) this.inputs[first].focus();
      return;
    }
    this.busy = true;
    this.submit.disabled = true;
    try {
      const profile =
        this.mode.kind === "edit"
          ? await this.api.updateModelProfile(this.mode.profile.id, { ...profileBody(this.form, this.mode.profile), ...price.body })
          : await this.api.createModelProfile({ ...profileBody(this.form), ...price.body });
      this.onSaved(profile, false);
    } catch (err) {
      this.errors.showError(err);
    } finally {
      this.busy = false;
      this.submit.disabled = false;
    }
  }

  private async doRemoveKey(): Promise<void> {
    if (this.mode.kind !== "edit" || this.busy) return;
    this.busy = true;
    this.removeKey.disabled = true;
    try {
      const profile = await this.api.updateModelProfile(this.mode.profile.id, { api_key: "" });
      this.mode = { kind: "edit", profile };
      this.form = { ...this.form, api_key: "" };
      this.inputs.api_key.value = "";
      this.renderKey();
      this.onSaved(profile, true);
    } catch (err) {
      this.errors.say(errorText(err));
    } finally {
      this.busy = false;
      this.removeKey.disabled = false;
    }
  }
}
