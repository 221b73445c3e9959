// Profile pickers: the fields a workflow's run and schedule forms add (which profile the browser starts from, and
// whether what changed is saved back), and the conversation bar's choice for the open conversation.

import type { ApiClient } from "../../api/client";
import type { BrowserProfile, ConversationProfile, Id, ProfileMode, ProfileStart } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { askText } from "../dialogs";
import { pickerLabel, startableProfiles } from "./format";

const NONE = "";

function profileOptions(profiles: readonly BrowserProfile[], noneLabel: string): HTMLOptionElement[] {
  return [
    h("option", { value: NONE }, noneLabel),
    ...startableProfiles(profiles).map((p) => h("option", { value: String(p.id) }, pickerLabel(p))),
  ];
}

function modeSelect(testid: string, cls = "input"): HTMLSelectElement {
  return h(
    "select",
    { class: cls, "aria-label": "Save the browser back into the profile", "data-testid": testid },
    h("option", { value: "read-write" }, "Save changes back"),
    h("option", { value: "read-only" }, "Read-only"),
  );
}

/** A form's "Start from profile" fields: loads the reader's profiles once, says what was chosen. */
export class ProfileFields {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly mode: HTMLSelectElement;

  constructor(api: ApiClient, testidPrefix: string) {
    this.select = h("select", { class: "input", "aria-label": "Browser profile", "data-testid": `${testidPrefix}profile` });
    replaceChildren(this.select, ...profileOptions([], "A fresh browser"));
    this.mode = modeSelect(`${testidPrefix}profile-mode`);
    this.mode.disabled = true;
    this.select.addEventListener("change", () => (this.mode.disabled = this.select.value === NONE));
    this.el = h(
      "label",
      { class: "field" },
      h("span", { class: "field-label" }, "Browser profile"),
      h("span", { class: "profile-fields" }, this.select, this.mode),
      h("span", { class: "field-hint" }, "Start signed in: the browser opens with the profile's cookies and storage."),
    );
    void api
      .listBrowserProfiles()
      .then((profiles) => replaceChildren(this.select, ...profileOptions(profiles, "A fresh browser")))
      .catch(() => (this.select.disabled = true));
  }

  value(): ProfileStart {
    if (this.select.value === NONE) return {};
    return { profile: Number(this.select.value), profile_mode: this.mode.value === "read-only" ? "read-only" : "read-write" };
  }
}

/** The conversation bar's profile choice: owners choose one for the open conversation, or none. */
export class ConversationProfilePicker {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly mode: HTMLSelectElement;
  private readonly error: HTMLElement;
  private conversationId: Id | null = null;
  private shown: ConversationProfile | null = null;

  constructor(private readonly api: ApiClient) {
    this.select = h("select", {
      class: "model-select",
      "aria-label": "Browser profile",
      "data-testid": "conversation-profile",
      onchange: () => void this.choose(),
    });
    this.mode = modeSelect("conversation-profile-mode", "model-select");
    this.mode.addEventListener("change", () => void this.choose());
    this.error = h("span", { class: "conv-bar-error", role: "alert", hidden: true });
    const save = h(
      "button",
      {
        class: "btn btn-ghost btn-sm",
        type: "button",
        "data-testid": "conversation-profile-save",
        title: "Keep this browser's sign-ins (signed in by hand on the live view, say) as a profile of yours",
        onclick: () => void this.saveAsProfile(),
      },
      "Save as profile",
    );
    this.el = h(
      "span",
      { class: "conv-bar-profile", title: "The browser profile this conversation's browser starts from" },
      this.select,
      this.mode,
      save,
      this.error,
    );
  }

  /** Shows the conversation's choice (loaded again when another conversation opens); hidden without one. */
  show(conversationId: Id | null): void {
    this.el.hidden = conversationId === null;
    if (conversationId === this.conversationId) return;
    this.conversationId = conversationId;
    this.error.hidden = true;
    if (conversationId === null) return;
    void Promise.all([this.api.listBrowserProfiles(), this.api.getConversationProfile(conversationId)])
      .then(([profiles, chosen]) => {
        if (this.conversationId !== conversationId) return;
        const options = profileOptions(profiles, "No profile");
        // A teammate's profile chosen by someone else is still shown as chosen.
        if (chosen.profile && !options.some((o) => o.value === String(chosen.profile?.id))) {
          options.push(h("option", { value: String(chosen.profile.id) }, `${chosen.profile.name} (${chosen.profile.owner})`));
        }
        replaceChildren(this.select, ...options);
        this.render(chosen);
      })
      .catch((err: unknown) => this.fail(err));
  }

  private render(chosen: ConversationProfile): void {
    this.shown = chosen;
    this.select.value = chosen.profile ? String(chosen.profile.id) : NONE;
    this.mode.value = chosen.mode ?? "read-write";
    this.mode.hidden = chosen.profile === null;
  }

  private async choose(): Promise<void> {
    const conversationId = this.conversationId;
    if (conversationId === null) return;
    this.error.hidden = true;
    const mode: ProfileMode = this.mode.value === "read-only" ? "read-only" : "read-write";
    try {
      if (this.select.value === NONE) {
        await this.api.clearConversationProfile(conversationId);
        this.render({ profile: null, mode: null, chosen_by: null, writing: false });
      } else {
        this.render(await this.api.setConversationProfile(conversationId, Number(this.select.value), mode));
      }
    } catch (err) {
      this.fail(err);
      if (this.shown) this.render(this.shown); // what is still in force
    }
  }

  /** The browser as it is now becomes a profile of the owner's, listed in the picker at once. */
  private async saveAsProfile(): Promise<void> {
    const conversationId = this.conversationId;
    if (conversationId === null) return;
    await askText({
      title: "Save the browser as a profile",
      label: "Name",
      placeholder: "github",
      maxLength: 100,
      required: "Give the profile a name.",
      submitLabel: "Save profile",
      testid: "conversation-profile-save-dialog",
      submit: async (name) => {
        const saved = await this.api.captureConversationProfile(conversationId, name);
        this.select.append(h("option", { value: String(saved.id) }, saved.name));
      },
    });
  }

  private fail(err: unknown): void {
    setText(this.error, errorText(err));
    this.error.hidden = false;
  }
}
