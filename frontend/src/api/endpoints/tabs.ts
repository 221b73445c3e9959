// The conversation's browser tabs, and reading them into the context.

import type { Request } from "../http";
import type { Id, Tab } from "../types";

export type TabsApi = ReturnType<typeof tabsApi>;

export function tabsApi(request: Request) {
  return {
    /** The session's tabs as last saved, each with what was read from it when it is in the context. */
    listTabs(conversationId: Id): Promise<Tab[]> {
      return request<Tab[]>("GET", `/conversations/${conversationId}/tabs/`);
    },
    /**
     * Adds a tab to the context, or reads it again: 202 at once; the worker reads the page and a `tab.content`
     * event brings what it read. 404 when the browser has no such tab.
     */
    readTab(conversationId: Id, tabId: string): Promise<void> {
      return request<undefined>("POST", `/conversations/${conversationId}/tabs/${encodeURIComponent(tabId)}/content/`);
    },
    /** Takes a tab out of the context (a `tab.content.removed` event follows). */
    removeTabContent(conversationId: Id, tabId: string): Promise<void> {
      return request<undefined>("DELETE", `/conversations/${conversationId}/tabs/${encodeURIComponent(tabId)}/content/`);
    },
  };
}
