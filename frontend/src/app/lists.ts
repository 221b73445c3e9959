// The app-wide lists kept in the store: the reader's conversations (newest activity first) and the
// model profiles, provider presets and server default; and when they are read again.

import type { ApiClient } from "../api/client";
import { ApiError } from "../api/errors";
import type { Conversation, Run } from "../api/types";
import { errorText } from "../errors";
import { isTerminalStatus, patchConversation, sortConversations } from "../reducer";
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

/** Whether a run's status is its conversation's: the agent's turns and workflow replays, as the server counts them. */
export function saysHowItGoes(run: Pick<Run, "kind">): boolean {
  return run.kind === undefined || run.kind === "turn" || run.kind === "workflow";
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

/** How often the conversation list is re-read while the page is visible (conversations shared meanwhile). */
const LIST_REFRESH_MS = 30_000;

/**
 * Keeps the lists fresh: read now, again when the window gets the focus, every 30 s while the page is visible
 * (conversations shared meanwhile show up without a reload), and soon after a run ends (the server may retitle
 * its conversation).
 */
export class ListRefresher {
  private readonly listTimer: number;
  private soonTimer: number | null = null;
  private readonly onFocus = (): void => {
    this.conversations();
    void this.models();
  };

  constructor(
    private readonly api: ApiClient,
    private readonly store: Store<AppState>,
  ) {
    window.addEventListener("focus", this.onFocus);
    this.conversations();
    void this.models();
    this.listTimer = window.setInterval(() => {
      if (document.visibilityState === "visible") this.conversations();
    }, LIST_REFRESH_MS);
  }

  conversations(): void {
    refreshConversations(this.api, this.store);
  }

  models(): Promise<void> {
    return refreshModels(this.api, this.store);
  }

  /**
   * A run changed: the agent's turns and replays set its conversation's status in the list (an action by hand does
   * not: a mistyped address does not make the conversation "failed"); titles can change when a run ends, so read
   * them soon.
   */
  noteRun(run: Run): void {
    if (saysHowItGoes(run)) {
      this.store.update((s) => ({
        ...s,
        conversations: patchConversation(s.conversations, run.conversation, { last_run_status: run.status }),
      }));
    }
    if (isTerminalStatus(run.status)) this.refreshSoon();
  }

  destroy(): void {
    window.clearInterval(this.listTimer);
    window.removeEventListener("focus", this.onFocus);
    if (this.soonTimer !== null) window.clearTimeout(this.soonTimer);
  }

  private refreshSoon(): void {
    if (this.soonTimer !== null) window.clearTimeout(this.soonTimer);
    this.soonTimer = window.setTimeout(() => {
      this.soonTimer = null;
      this.conversations();
    }, 500);
  }
}
