// What the parts of an open conversation share: its id, the API, its view, and whether it was closed.

import type { ApiClient } from "../api/client";
import type { Id } from "../api/types";
import type { ConversationView, Store } from "../state";

export interface SessionContext {
  readonly id: Id;
  readonly api: ApiClient;
  readonly store: Store<ConversationView>;
  /** The conversation was closed: answers that come after it are dropped. */
  isDisposed(): boolean;
  /** Shows a notice; the same text again shows again even after it was dismissed. */
  showNotice(text: string): void;
}
