// The conversation as the REST API has it: its messages, runs (with steps) and tabs, loaded when it opens and
// again after every reconnect. Concurrent loads coalesce into one more; a slower answer never overwrites
// fresher tabs from the websocket.

import type { Conversation } from "../api/types";
import { ApiError } from "../api/errors";
import { mergeSnapshot, withDownloads } from "../reducer";
import type { SessionContext } from "./context";
import { settledReads } from "./tabreads";

export interface HistoryHooks {
  onConversation: (conversation: Conversation) => void;
  /** The REST API answered 401/403: the session cookie is gone. */
  onSignedOut: () => void;
}

export class History {
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  /** Counts tabs.updated events, so a slower REST answer never overwrites fresher tabs. */
  private tabEvents = 0;

  constructor(
    private readonly ctx: SessionContext,
    private readonly hooks: HistoryHooks,
  ) {}

  /** The websocket sent the tabs. */
  noteTabsEvent(): void {
    this.tabEvents += 1;
  }

  /** Loads messages and runs (with steps); concurrent calls coalesce into one more load. */
  load(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false;
        await this.loadOnce();
        // load() sets reloadAgain while this loop awaits, which the type checker cannot see.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      } while (this.reloadAgain && !this.ctx.isDisposed());
      this.loading = null;
    })();
    return this.loading;
  }

  private async loadOnce(): Promise<void> {
    const { api, id, store } = this.ctx;
    const tabEventsBefore = this.tabEvents;
    const before = store.get();
    try {
      const [conversation, messages, runs, tabs, files] = await Promise.all([
        api.getConversation(id),
        api.listMessages(id),
        api.listRuns(id),
        // Tabs are a nicety on load (the websocket sends them as they change): never fail the load for them.
        api.listTabs(id).catch(() => null),
        // So are the files: their cards are added as they come (file.created).
        api.listFiles(id).catch(() => []),
      ]);
      if (this.ctx.isDisposed()) return;
      const freshTabs = tabs !== null && this.tabEvents === tabEventsBefore;
      store.update((view) => ({
        ...mergeSnapshot(view, messages, runs, before),
        // The websocket's word on the role (hello, access.updated) is fresher than this answer's.
        conversation:
          view.role && conversation.role !== view.role
            ? { ...conversation, role: view.role, shared: view.role !== "owner" }
            : conversation,
        tabs: freshTabs ? tabs : view.tabs,
        downloads: withDownloads(view.downloads, files),
        // A read that finished while the socket was away shows in the tabs: its spinner can stop.
        readingTabs: freshTabs ? settledReads(view.readingTabs, tabs) : view.readingTabs,
      }));
      this.hooks.onConversation(store.get().conversation ?? conversation);
    } catch (err) {
      if (this.ctx.isDisposed()) return;
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        this.hooks.onSignedOut();
        return;
      }
      const message =
        err instanceof ApiError && err.status === 404
          ? "This conversation does not exist, or it is not shared with you."
          : err instanceof Error
            ? err.message
            : String(err);
      store.update((view) => (view.loaded ? view : { ...view, loadError: message }));
    }
  }
}
