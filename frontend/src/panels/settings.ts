// Settings (/settings): the user's model profiles (add, edit, test the connection, choose a fallback,
// delete), the server's default model, what the model cost (usage), workflows, browser profiles, the vault, notes and
// personas, and the personal API token.

import type { ApiClient } from "../api/client";
import type { Id, ModelProfile, Note, Persona } from "../api/types";
import { h, icon, iconButton, ICONS, KeyedList, replaceChildren, setText } from "../dom";
import { upsertProfile, withoutProfile } from "../models";
import type { AppState, Store } from "../state";
import { BrowserProfilesSection } from "./browserprofiles/section";
import { notesSection, personasSection } from "./memory";
import type { RecordSection } from "./memory/section";
import { ProfileFormView, type FormMode } from "./settings/profileform";
import { createProfileRow, type ProfileRow } from "./settings/profilerow";
import { ApiTokenSection } from "./settings/token";
import { UsageSection } from "./usage/section";
import { VaultSection } from "./vault/section";
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
  private readonly token: ApiTokenSection;
  private readonly notes: RecordSection<Note>;
  private readonly personas: RecordSection<Persona>;
  private readonly workflows: WorkflowsSection;
  private readonly usage: UsageSection;
  private readonly browserProfiles: BrowserProfilesSection;
  private readonly vault: VaultSection;
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

    this.token = new ApiTokenSection(options.api);

    this.notes = notesSection(options.api);
    this.personas = personasSection(options.api);
    this.workflows = new WorkflowsSection({ api: options.api, openConversation: options.openConversation });
    this.usage = new UsageSection(options.api);
    this.browserProfiles = new BrowserProfilesSection(options.api);
    this.vault = new VaultSection(options.api);

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
          this.usage.el,
          this.workflows.el,
          this.browserProfiles.el,
          this.vault.el,
          this.notes.el,
          this.personas.el,
          this.token.el,
        ),
      ),
    );
  }

  /** The page was opened: fresh data, no token left on screen from last time. */
  show(): void {
    this.back.href = this.options.backHref();
    this.token.reset();
    document.title = "Settings · Hive";
    void this.options.refreshModels();
    void this.notes.load();
    void this.personas.load();
    void this.workflows.load();
    void this.usage.load();
    void this.browserProfiles.load();
    void this.vault.load();
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
    this.formView.open(mode, models?.providers ?? [], models?.profiles ?? [], byUser);
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
}
