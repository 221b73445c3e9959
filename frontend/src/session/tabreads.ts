// Reading tabs into the conversation's context for the agent: the share toggle, a read (with a time
// limit, since the answer is a `tab.content` event), a refresh, and taking a tab out again.

import type { Tab } from "../api/types";
import { errorText } from "../errors";
import { applyServerEvent, withoutKey } from "../reducer";
import { READ_TIMEOUT_MS, toggleShared } from "../sharing";
import type { SessionContext } from "./context";

function tabName(tabs: readonly Tab[], tabId: string): string {
  const tab = tabs.find((t) => t.id === tabId);
  return tab?.title || tab?.url || "the tab";
}

/** Reads asked for before the tabs' saved content was read are over. */
export function settledReads(reading: Record<string, number>, tabs: readonly Tab[]): Record<string, number> {
  let next = reading;
  for (const tab of tabs) {
    const at = tab.context?.extracted_at ? Date.parse(tab.context.extracted_at) : NaN;
    const askedAt = reading[tab.id];
    if (askedAt !== undefined && at >= askedAt) next = withoutKey(next, tab.id);
  }
  return next;
}

export class TabReads {
  /** Reads that give up if no `tab.content` comes, by tab id. */
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly ctx: SessionContext) {}

  /**
   * Turns a tab's "share with the agent" toggle on or off. On, for a tab not yet in the context, reads it
   * first (the spinner shows until `tab.content`). Off only stops sharing it with the next sends: it stays
   * in the context.
   */
  share(tabId: string, on: boolean): void {
    const store = this.ctx.store;
    store.update((view) => ({ ...view, sharedTabIds: toggleShared(view.sharedTabIds, tabId, on) }));
    const view = store.get();
    const tab = view.tabs.find((t) => t.id === tabId);
    if (on && !tab?.context && !(tabId in view.readingTabs)) void this.read(tabId);
  }

  /** Reads a tab into the context (or again: the refresh button). Errors go to the notice. */
  async read(tabId: string): Promise<void> {
    const { store, api, id } = this.ctx;
    if (tabId in store.get().readingTabs) return;
    store.update((view) => ({ ...view, readingTabs: { ...view.readingTabs, [tabId]: Date.now() } }));
    this.settled(tabId);
    this.timers.set(
      tabId,
      setTimeout(() => {
        this.timers.delete(tabId);
        if (this.ctx.isDisposed() || !(tabId in store.get().readingTabs)) return;
        this.endRead(tabId);
        this.ctx.showNotice(`Reading “${tabName(store.get().tabs, tabId)}” took too long. Try again with its refresh button.`);
      }, READ_TIMEOUT_MS),
    );
    try {
      await api.readTab(id, tabId);
    } catch (err) {
      this.settled(tabId);
      if (this.ctx.isDisposed()) return;
      this.endRead(tabId);
      this.ctx.showNotice(`Could not read “${tabName(store.get().tabs, tabId)}”: ${errorText(err)}`);
    }
  }

  /** Takes a tab out of the context: it is not shared any more either. Errors go to the notice. */
  async remove(tabId: string): Promise<void> {
    const { store, api, id } = this.ctx;
    try {
      await api.removeTabContent(id, tabId);
    } catch (err) {
      if (!this.ctx.isDisposed()) this.ctx.showNotice(`Could not remove “${tabName(store.get().tabs, tabId)}”: ${errorText(err)}`);
      return;
    }
    if (this.ctx.isDisposed()) return;
    // The tab.content.removed event says the same; this shows it at once.
    store.update((view) => applyServerEvent(view, { type: "tab.content.removed", tab_id: tabId }));
  }

  /** The tab's content came (or went): its read no longer needs a time limit. */
  settled(tabId: string): void {
    const timer = this.timers.get(tabId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(tabId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** A read failed or gave up: no spinner, and a toggle that has nothing to share goes off. */
  private endRead(tabId: string): void {
    this.ctx.store.update((view) => {
      const tab = view.tabs.find((t) => t.id === tabId);
      return {
        ...view,
        readingTabs: withoutKey(view.readingTabs, tabId),
        sharedTabIds: tab?.context ? view.sharedTabIds : view.sharedTabIds.filter((id) => id !== tabId),
      };
    });
  }
}
