// The settings bar over the chat: the open conversation's settings (only its owner changes them), or on the
// home page the settings the next conversation starts with, kept here until one is started.

import type { ApiClient } from "../api/client";
import type { ConversationSettings } from "../api/types";
import { conversationSettings, defaultConversationSettings } from "../models";
import { ConversationProfilePicker } from "../panels/browserprofiles/picker";
import { ConversationBar } from "../panels/convbar";
import type { AppState, ConversationView, Store } from "../state";

export class SettingsBar {
  readonly el: HTMLElement;
  private readonly bar: ConversationBar;
  private readonly profile: ConversationProfilePicker;
  /** Settings for the next conversation started from the home page; null until the user changes one. */
  private draft: ConversationSettings | null = null;

  constructor(
    private readonly store: Store<AppState>,
    api: ApiClient,
    onChange: (patch: Partial<ConversationSettings>) => Promise<void>,
  ) {
    this.profile = new ConversationProfilePicker(api);
    this.bar = new ConversationBar({ onChange, extra: this.profile.el });
    this.el = this.bar.el;
  }

  /** The settings a conversation started now gets: the home page's choice, if its model still exists. */
  forNewConversation(): ConversationSettings {
    const models = this.store.get().models;
    const draft = this.draft ?? defaultConversationSettings(models);
    const known = draft.model_profile === null || !models.loaded || models.profiles.some((p) => p.id === draft.model_profile);
    return known ? draft : { ...draft, model_profile: defaultConversationSettings(models).model_profile };
  }

  /** A change on the home page: kept for the next conversation. */
  keep(patch: Partial<ConversationSettings>): void {
    this.draft = { ...this.forNewConversation(), ...patch };
  }

  /** Shows the open conversation's settings (hidden unless the reader may change them), or the home page's. */
  render(view: ConversationView | null, mayChange: boolean): void {
    const models = this.store.get().models;
    if (view) {
      const conversation = view.conversation;
      // Its browser profile is the owner's to choose, once the conversation exists.
      this.profile.show(conversation && mayChange && !view.loadError && !view.revoked ? view.id : null);
      this.bar.update({
        settings: conversationSettings(conversation ?? {}),
        models,
        disabled: !conversation,
        hidden: !!view.loadError || view.revoked || !mayChange,
        draft: false,
      });
    } else {
      this.profile.show(null);
      this.bar.update({ settings: this.forNewConversation(), models, disabled: false, hidden: false, draft: true });
    }
  }
}
