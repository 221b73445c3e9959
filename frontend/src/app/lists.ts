// The app-wide lists kept in the store: the reader's conversations (newest activity first) and the
// model profiles, provider presets and server default.

import type { ApiClient } from "../api/client";
import { ApiError } from "../api/errors";
import type { Conversation } from "../api/types";
import { errorText } from "../errors";
import { sortConversations } from "../reducer";
import type { AppState, Store } from "../state";

/** The list with this conversation in it: replaced where it was, else added; sorted. */
export function withConversation(conversations: readonly Conversation[], conversation: Conversation): Conversation[] {
  const exists = conversations.some((c) => c.id === conversation.id);
  return sortConversations(
    exists ? conversations.map((c) => (c.id === conversation.id ? conversation : c)) : [conversation, ...conversations],
  );
}

export function upsertConversation(store: Store<AppState>, conversation: Conversation): void {
  store.update((s) => ({ ...s, conversations: withConversation(s.conversations, conversation) }));
}

/** Reads the conversation list again (a failure keeps the one shown). */
export function refreshConversations(api: ApiClient, store: Store<AppState>): void {
  api.listConversations().then(
    (conversations) =>
      store.update((s) => ({
        ...s,
        conversations: sortConversations(conversations),
        conversationsLoaded: true,
      })),
    () => undefined,
  );
}

/** Profiles, provider presets and the server default, for the settings page and the model selector. */
export async function refreshModels(api: ApiClient, store: Store<AppState>): Promise<void> {
  try {
    const [profiles, providers] = await Promise.all([api.listModelProfiles(), api.listModelProviders()]);
    store.update((s) => ({
      ...s,
      models: {
        profiles,
        providers: providers.providers,
        serverDefault: providers.server_default,
        loaded: true,
        error: null,
      },
    }));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return;
    const message = errorText(err);
    store.update((s) => ({ ...s, models: { ...s.models, error: message } }));
  }
}
