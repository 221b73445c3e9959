// Settings (/settings): the user's model profiles (add, edit, test the connection, choose a fallback,
// delete), the server's default model, notes and personas (memory.ts), and the personal API token.

import { ApiError, type ApiClient } from "../api/client";
import { copyText } from "../clipboard";
import { errorText } from "../errors";
import type { ConnectionCheck, Id, ModelProfile, ModelProvider, Note, Persona } from "../api/types";
import { h, icon, iconButton, ICONS, KeyedList, present, replaceChildren, setAttr, setText, type Component } from "../dom";
import {
  fallbackChoices,
  newProfileForm,
  profileBody,
  profileFormFrom,
  providerLabel,
  upsertProfile,
  validateProfileForm,
  withProvider,
  withoutProfile,
  type ProfileForm,
} from "../models";
import type { AppState, Store } from "../state";
import { notesSection, personasSection, type RecordSection } from "./memory";
import { WorkflowsSection } from "./workflows/section";

export interface SettingsPanelOptions {
  api: ApiClient;
  store: Store<AppState>;
  /** Reloads profiles, providers and the server default into the store. */
  refreshModels: () => Promise<void>;
  onToggleSidebar: () => void;
  /** Where "Back to chat" goes (the conversation last open, else home). */
  backHref: () => string;
  /** Opens a conversation (a workflow's replay). */
  openConversation: (id: Id) => void;
}

// --- The profile form ---

const CAPABILITIES: { key: "supports_tools" | "supports_vision" | "parallel_tool_calls"; label: string; hint: string }[] = [
  { key: "supports_tools", label: "Tool calling", hint: "The API takes tools (else the agent writes its calls as JSON)." },
  { key: "supports_vision", label: "Vision", hint: "The model can look at screenshots." },
  { key: "parallel_tool_calls", label: "Parallel tool calls", hint: "Several tool calls in one reply." },
];

type FormMode = { kind: "create" } | { kind: "edit"; profile: ModelProfile };

class ProfileFormView {
  readonly el: HTMLFormElement;
  private readonly heading: HTMLElement;
  private readonly inputs: {
    name: HTMLInputElement;
    provider: HTMLSelectElement;
    base_url: HTMLInputElement;
    model: HTMLInputElement;
    api_key: HTMLInputElement;
    fallback: HTMLSelectElement;
  };
  private readonly caps: Record<(typeof CAPABILITIES)[number]["key"], HTMLInputElement>;
  private readonly fieldErrors = new Map<string, HTMLElement>();
  private readonly keyState: HTMLElement;
  private readonly removeKey: HTMLButtonElement;
  private readonly keyHint: HTMLElement;
  private readonly error: HTMLElement;
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
    const fieldError = (name: string): HTMLElement => {
      const el = h("span", { class: "field-error", hidden: true });
      this.fieldErrors.set(name, el);
      return el;
    };
    this.inputs = {
      name: h("input", { name: "name", type: "text", maxlength: "100", autocomplete: "off", placeholder: "e.g. GPT-4o mini" }),
      provider: h("select", { name: "provider" }),
      base_url: h("input", { name: "base_url", type: "url", maxlength: "500", autocomplete: "off", spellcheck: "false" }),
      model: h("input", { name: "model", type: "text", maxlength: "200", autocomplete: "off", spellcheck: "false", placeholder: "e.g. gpt-4o-mini" }),
      api_key: h("input", { name: "api_key", type: "password", maxlength: "500", autocomplete: "new-password", spellcheck: "false" }),
      fallback: h("select", { name: "fallback" }),
    };
    this.caps = {
      supports_tools: h("input", { type: "checkbox", name: "supports_tools" }),
      supports_vision: h("input", { type: "checkbox", name: "supports_vision" }),
      parallel_tool_calls: h("input", { type: "checkbox", name: "parallel_tool_calls" }),
    };
    for (const key of ["name", "base_url", "model", "api_key"] as const) {
      this.inputs[key].addEventListener("input", () => {
        this.form = { ...this.form, [key]: this.inputs[key].value };
        const error = this.fieldErrors.get(key);
        if (error) error.hidden = true;
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
    this.error = h("div", { class: "form-error", role: "alert", hidden: true });
    this.submit = h("button", { class: "btn btn-primary", type: "submit", "data-testid": "profile-save" }, "Save");
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
          fieldError("supports_tools"),
        ),
        field(
          "Fallback",
          this.inputs.fallback,
          "fallback",
          h("span", { class: "field-hint" }, "Used when this model fails or can't be reached."),
        ),
      ),
      this.error,
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

  open(mode: FormMode, providers: ModelProvider[], profiles: ModelProfile[]): void {
    this.mode = mode;
    this.providers = providers;
    this.profiles = profiles;
    this.form = mode.kind === "edit" ? profileFormFrom(mode.profile) : newProfileForm(providers);
    this.clearErrors();
    this.renderOptions();
    this.renderValues();
    this.inputs.name.focus();
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

  private clearErrors(): void {
    for (const el of this.fieldErrors.values()) el.hidden = true;
    for (const input of [...Object.values(this.inputs)]) input.removeAttribute("aria-invalid");
    this.error.hidden = true;
  }

  private showErrors(fields: Record<string, string[]>, messages: string[]): void {
    const leftover = [...messages];
    for (const [name, errors] of Object.entries(fields)) {
      const el = this.fieldErrors.get(name);
      const input = (this.inputs as Record<string, HTMLElement | undefined>)[name];
      if (el) {
        el.textContent = errors.join(" ");
        el.hidden = false;
        input?.setAttribute("aria-invalid", "true");
      } else {
        leftover.push(...errors);
      }
    }
    replaceChildren(this.error, ...leftover.map((m) => h("div", null, m)));
    this.error.hidden = leftover.length === 0;
  }

  private async save(): Promise<void> {
    if (this.busy) return;
    this.clearErrors();
    const invalid = validateProfileForm(this.form);
    if (Object.keys(invalid).length) {
      this.showErrors(Object.fromEntries(Object.entries(invalid).map(([k, v]) => [k, [v]])), []);
      const first = Object.keys(invalid).find((key): key is keyof typeof this.inputs => key in this.inputs);
      if (first) this.inputs[first].focus();
      return;
    }
    this.busy = true;
    this.submit.disabled = true;
    try {
      const profile =
        this.mode.kind === "edit"
          ? await this.api.updateModelProfile(this.mode.profile.id, profileBody(this.form, this.mode.profile))
          : await this.api.createModelProfile(profileBody(this.form));
      this.onSaved(profile, false);
    } catch (err) {
      if (err instanceof ApiError) this.showErrors(err.fieldErrors, err.detail ? [err.detail] : Object.keys(err.fieldErrors).length ? [] : [err.message]);
      else this.showErrors({}, [errorText(err)]);
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
      this.showErrors({}, [errorText(err)]);
    } finally {
      this.busy = false;
      this.removeKey.disabled = false;
    }
  }
}

// --- The list of profiles ---

interface ProfileRow {
  profile: ModelProfile;
  providers: ModelProvider[];
  profiles: ModelProfile[];
  editing: boolean;
}

interface ProfileRowActions {
  edit(profile: ModelProfile): void;
  remove(profile: ModelProfile): Promise<void>;
  test(profile: ModelProfile): Promise<ConnectionCheck>;
}

function createProfileRow(initial: ProfileRow, actions: ProfileRowActions): Component<ProfileRow> {
  let current = initial;
  const name = h("span", { class: "profile-name" });
  const provider = h("span", { class: "chip" });
  const detail = h("div", { class: "profile-detail" });
  const chips = h("div", { class: "profile-chips" });
  // In the item once a test was started.
  const result = h("div", { class: "profile-test-result", "data-testid": "profile-test-result", role: "status" });
  const test = h(
    "button",
    { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "profile-test" },
    "Test connection",
  );
  const edit = h("button", { class: "btn btn-ghost btn-sm", type: "button", "data-testid": "profile-edit" }, icon(ICONS.pencil, 14), "Edit");
  const del = h(
    "button",
    { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": "profile-delete" },
    icon(ICONS.trash, 14),
    "Delete",
  );
  const confirmText = h("span", null);
  const confirmDelete = h(
    "button",
    { class: "btn btn-danger btn-sm", type: "button", "data-testid": "profile-delete-confirm" },
    "Delete",
  );
  const cancelDelete = h("button", { class: "btn btn-ghost btn-sm", type: "button" }, "Cancel");
  const confirmRow = h("div", { class: "profile-confirm", role: "alert", hidden: true }, confirmText, cancelDelete, confirmDelete);
  const deleteError = h("div", { class: "field-error", hidden: true });
  const el = h(
    "div",
    { class: "profile-item card", "data-testid": "profile-item" },
    h(
      "div",
      { class: "profile-top" },
      h("div", { class: "profile-main" }, h("div", { class: "profile-title" }, name, provider), detail, chips),
      h("div", { class: "profile-actions" }, test, edit, del),
    ),
    confirmRow,
    deleteError,
  );

  test.addEventListener("click", () => void (async () => {
    test.disabled = true;
    setText(test, "Testing…");
    present(el, result, true, confirmRow);
    result.className = "profile-test-result testing";
    setAttr(result, "data-ok", null);
    replaceChildren(result, h("span", { class: "spinner" }), h("span", null, "Sending the model a tiny request…"));
    try {
      const check = await actions.test(current.profile);
      result.className = `profile-test-result ${check.ok ? "ok" : "fail"}`;
      setAttr(result, "data-ok", String(check.ok));
      replaceChildren(
        result,
        icon(check.ok ? ICONS.check : ICONS.alert, 14),
        h("span", null, check.detail || (check.ok ? "Connected." : "The connection failed.")),
        h("span", { class: "latency" }, `${check.latency_ms.toLocaleString("en-US")} ms`),
      );
    } catch (err) {
      result.className = "profile-test-result fail";
      setAttr(result, "data-ok", "false");
      replaceChildren(result, icon(ICONS.alert, 14), h("span", null, `Could not test: ${errorText(err)}`));
    } finally {
      test.disabled = false;
      setText(test, "Test connection");
    }
  })());
  edit.addEventListener("click", () => actions.edit(current.profile));
  del.addEventListener("click", () => {
    setText(confirmText, `Delete “${current.profile.name}”? Conversations using it go back to the server default.`);
    confirmRow.hidden = false;
    deleteError.hidden = true;
    confirmDelete.focus();
  });
  cancelDelete.addEventListener("click", () => (confirmRow.hidden = true));
  confirmDelete.addEventListener("click", () => void (async () => {
    confirmDelete.disabled = true;
    try {
      await actions.remove(current.profile);
    } catch (err) {
      deleteError.textContent = errorText(err);
      deleteError.hidden = false;
      confirmDelete.disabled = false;
    }
  })());

  const update = (row: ProfileRow): void => {
    current = row;
    const p = row.profile;
    setAttr(el, "data-profile-id", String(p.id));
    el.classList.toggle("editing", row.editing);
    setText(name, p.name);
    setText(provider, providerLabel(row.providers, p.provider));
    setText(detail, `${p.model} · ${p.base_url}`);
    setAttr(detail, "title", `${p.model} at ${p.base_url}`);
    const fallback = p.fallback !== null ? row.profiles.find((x) => x.id === p.fallback) : undefined;
    replaceChildren(
      chips,
      h(
        "span",
        { class: `chip ${p.has_api_key ? "chip-ok" : "chip-muted"}`, "data-testid": "profile-key-state" },
        icon(ICONS.key, 12),
        p.has_api_key ? "Key saved" : "No key",
      ),
      p.supports_tools ? h("span", { class: "chip" }, "Tools") : null,
      p.supports_vision ? h("span", { class: "chip" }, "Vision") : null,
      p.parallel_tool_calls ? h("span", { class: "chip" }, "Parallel calls") : null,
      fallback ? h("span", { class: "chip chip-muted", "data-testid": "profile-fallback" }, `Falls back to ${fallback.name}`) : null,
    );
  };
  update(initial);
  return { el, update };
}

// --- The page ---

export class SettingsPanel {
  readonly el: HTMLElement;
  private readonly serverDefault: HTMLElement;
  private readonly listEl: HTMLElement;
  private readonly list: KeyedList<ProfileRow>;
  private readonly empty: HTMLElement;
  private readonly loadError: HTMLElement;
  private readonly formView: ProfileFormView;
  private readonly formSlot: HTMLElement;
  private readonly back: HTMLAnchorElement;
  private readonly tokenBox: HTMLElement;
  private readonly tokenValue: HTMLInputElement;
  private readonly tokenStatus: HTMLElement;
  private readonly copyButton: HTMLButtonElement;
  private readonly copyLabel = h("span", null, "Copy");
  private readonly notes: RecordSection<Note>;
  private readonly personas: RecordSection<Persona>;
  private readonly workflows: WorkflowsSection;
  private state: AppState | null = null;
  private formOpen = false;
  /** Whether the form was opened (or closed) by the user: an empty list opens it once, by itself. */
  private formTouched = false;

  constructor(private readonly options: SettingsPanelOptions) {
    this.serverDefault = h("div", { class: "server-default", "data-testid": "server-default" });
    this.listEl = h("div", { class: "profile-list", "data-testid": "profile-list" });
    this.list = new KeyedList(
      this.listEl,
      (r) => String(r.profile.id),
      (r) =>
        createProfileRow(r, {
          edit: (profile) => this.openForm({ kind: "edit", profile }),
          remove: (profile) => this.remove(profile),
          test: (profile) => this.options.api.testModelProfile(profile.id),
        }),
    );
    this.empty = h("p", { class: "settings-empty", hidden: true }, "No models yet. Add one: any OpenAI-compatible API works.");
    this.loadError = h("div", { class: "form-error", role: "alert", hidden: true });
    this.formView = new ProfileFormView(
      options.api,
      (profile, keepOpen) => this.saved(profile, keepOpen),
      () => this.closeForm(),
    );
    this.formSlot = h("div", { class: "profile-form-slot", hidden: true }, this.formView.el);
    const add = h(
      "button",
      { class: "btn btn-primary", type: "button", "data-testid": "profile-add", onclick: () => this.openForm({ kind: "create" }) },
      icon(ICONS.plus),
      "Add a model",
    );
    this.back = h("a", { class: "btn btn-ghost", href: "/", "data-link": true, "data-testid": "settings-back" }, icon(ICONS.back), "Back to chat");

    // API token
    this.tokenValue = h("input", {
      class: "token-value",
      type: "text",
      readonly: true,
      spellcheck: "false",
      "data-testid": "api-token-value",
      "aria-label": "Your new API token",
    });
    this.copyButton = h(
      "button",
      { class: "btn btn-secondary", type: "button", "data-testid": "api-token-copy", onclick: () => void this.copyToken() },
      icon(ICONS.copy, 14),
      this.copyLabel,
    );
    this.tokenBox = h(
      "div",
      { class: "token-box", hidden: true },
      h("div", { class: "token-row" }, this.tokenValue, this.copyButton),
      h("p", { class: "field-hint" }, "Copy it now: it is shown only this once. Creating another token replaces this one."),
    );
    this.tokenStatus = h("div", { class: "token-status", "data-testid": "api-token-status", role: "status", hidden: true });
    const createToken = h(
      "button",
      { class: "btn btn-primary", type: "button", "data-testid": "api-token-create" },
      icon(ICONS.key, 14),
      "Create a new token",
    );
    const revokeToken = h(
      "button",
      { class: "btn btn-ghost danger", type: "button", "data-testid": "api-token-revoke" },
      "Revoke token",
    );
    createToken.addEventListener("click", () => void (async () => {
      createToken.disabled = true;
      this.setTokenStatus(null);
      try {
        const { token } = await this.options.api.createToken();
        this.tokenValue.value = token;
        this.tokenBox.hidden = false;
        setText(this.copyLabel, "Copy");
        this.tokenValue.focus();
        this.tokenValue.select();
      } catch (err) {
        this.setTokenStatus(errorText(err), true);
      } finally {
        createToken.disabled = false;
      }
    })());
    revokeToken.addEventListener("click", () => void (async () => {
      revokeToken.disabled = true;
      try {
        await this.options.api.revokeToken();
        this.tokenValue.value = "";
        this.tokenBox.hidden = true;
        this.setTokenStatus("Token revoked. Scripts using it can no longer sign in.");
      } catch (err) {
        this.setTokenStatus(errorText(err), true);
      } finally {
        revokeToken.disabled = false;
      }
    })());

    this.notes = notesSection(options.api);
    this.personas = personasSection(options.api);
    this.workflows = new WorkflowsSection({ api: options.api, openConversation: options.openConversation });

    this.el = h(
      "main",
      { class: "settings", "aria-labelledby": "settings-title" },
      h(
        "header",
        { class: "chat-head settings-head" },
        iconButton(ICONS.menu, "Conversations", () => this.options.onToggleSidebar(), "menu-button"),
        h("h1", { class: "chat-title", id: "settings-title" }, "Settings"),
        h("span", { class: "step-spacer" }),
        this.back,
      ),
      h(
        "div",
        { class: "settings-scroll" },
        h(
          "div",
          { class: "settings-inner" },
          h(
            "section",
            { class: "settings-section", "aria-labelledby": "models-title" },
            h(
              "div",
              { class: "settings-section-head" },
              h("div", null, h("h2", { id: "models-title" }, "Models"), h("p", { class: "settings-lead" }, "The agent talks to any OpenAI-compatible API. Add the models you want; each conversation picks one above the chat.")),
              add,
            ),
            this.serverDefault,
            this.loadError,
            this.formSlot,
            this.listEl,
            this.empty,
          ),
          this.workflows.el,
          this.notes.el,
          this.personas.el,
          h(
            "section",
            { class: "settings-section", "data-testid": "api-token", "aria-labelledby": "token-title" },
            h("h2", { id: "token-title" }, "Personal API token"),
            h(
              "p",
              { class: "settings-lead" },
              "For scripts and tools: send it as ",
              h("code", null, "Authorization: Token <token>"),
              " to the REST API under ",
              h("code", null, "/api/"),
              ". You have at most one; a new one replaces the old.",
            ),
            this.tokenBox,
            this.tokenStatus,
            h("div", { class: "form-actions start" }, createToken, revokeToken),
          ),
        ),
      ),
    );
  }

  /** The page was opened: fresh data, no token left on screen from last time. */
  show(): void {
    this.back.href = this.options.backHref();
    this.tokenValue.value = "";
    this.tokenBox.hidden = true;
    this.setTokenStatus(null);
    document.title = "Settings · Hive";
    void this.options.refreshModels();
    void this.notes.load();
    void this.personas.load();
    void this.workflows.load();
  }

  update(state: AppState): void {
    const previous = this.state;
    this.state = state;
    const models = state.models;
    if (previous?.models === models) return;
    if (models.serverDefault) {
      replaceChildren(
        this.serverDefault,
        h("span", { class: "server-default-label" }, "Server default model"),
        h("code", null, models.serverDefault.model),
        h("span", { class: "server-default-url" }, models.serverDefault.base_url),
      );
      this.serverDefault.classList.remove("none");
    } else {
      replaceChildren(
        this.serverDefault,
        h("span", { class: "server-default-label" }, models.loaded ? "No server default model" : "Loading…"),
        models.loaded
          ? h("span", { class: "server-default-url" }, "Conversations need one of your models below.")
          : null,
      );
      this.serverDefault.classList.toggle("none", models.loaded);
    }
    this.loadError.hidden = !models.error;
    setText(this.loadError, models.error ? `Could not load your models: ${models.error}` : "");
    const editing = this.formOpen ? this.formView.editingId : null;
    this.list.update(
      models.profiles.map((profile) => ({
        profile,
        providers: models.providers,
        profiles: models.profiles,
        editing: profile.id === editing,
      })),
    );
    this.empty.hidden = !models.loaded || models.profiles.length > 0;
    if (this.formOpen) this.formView.refresh(models.providers, models.profiles);
    // Nothing to list: the form is what there is to do.
    if (models.loaded && models.profiles.length === 0 && !this.formOpen && !this.formTouched) {
      this.openForm({ kind: "create" }, false);
    }
  }

  private openForm(mode: FormMode, byUser = true): void {
    if (byUser) this.formTouched = true;
    const models = this.state?.models;
    if (this.formOpen && mode.kind === "create" && this.formView.isCreating) {
      this.formView.el.querySelector<HTMLInputElement>("input[name=name]")?.focus();
      return;
    }
    this.formOpen = true;
    this.formSlot.hidden = false;
    this.formView.open(mode, models?.providers ?? [], models?.profiles ?? []);
    if (byUser) this.formSlot.scrollIntoView({ block: "nearest", behavior: "smooth" });
    this.markEditing();
  }

  private closeForm(): void {
    this.formTouched = true;
    this.formOpen = false;
    this.formSlot.hidden = true;
    this.markEditing();
  }

  private markEditing(): void {
    const editing = this.formOpen ? this.formView.editingId : null;
    for (const item of this.listEl.querySelectorAll<HTMLElement>("[data-profile-id]")) {
      item.classList.toggle("editing", item.dataset.profileId === String(editing));
    }
  }

  private saved(profile: ModelProfile, keepOpen: boolean): void {
    this.options.store.update((s) => ({
      ...s,
      models: { ...s.models, profiles: upsertProfile(s.models.profiles, profile) },
    }));
    if (!keepOpen) this.closeForm();
  }

  private async remove(profile: ModelProfile): Promise<void> {
    await this.options.api.deleteModelProfile(profile.id);
    if (this.formOpen && this.formView.editingId === profile.id) this.closeForm();
    this.options.store.update((s) => ({
      ...s,
      models: { ...s.models, profiles: withoutProfile(s.models.profiles, profile.id) },
      // The server moves conversations on this profile to the server default.
      conversations: s.conversations.map((c) => (c.model_profile === profile.id ? { ...c, model_profile: null } : c)),
    }));
  }

  private async copyToken(): Promise<void> {
    const token = this.tokenValue.value;
    if (!token) return;
    const copied = await copyText(token);
    setText(this.copyLabel, copied ? "Copied" : "Select and copy");
    this.tokenValue.select();
  }

  private setTokenStatus(text: string | null, isError = false): void {
    this.tokenStatus.hidden = !text;
    this.tokenStatus.classList.toggle("error", isError);
    setText(this.tokenStatus, text ?? "");
  }
}
