// Browser profiles: import, list, rename, forget an origin, export, delete; a conversation's choice of one.

import type { Request } from "../http";
import type { BrowserProfile, BrowserProfileImport, ConversationProfile, Id, ProfileMode } from "../types";

export type BrowserProfilesApi = ReturnType<typeof browserProfilesApi>;

export function browserProfilesApi(request: Request) {
  return {
    listBrowserProfiles(): Promise<BrowserProfile[]> {
      return request<BrowserProfile[]>("GET", "/profiles/");
    },
    importBrowserProfile(body: BrowserProfileImport): Promise<BrowserProfile> {
      return request<BrowserProfile>("POST", "/profiles/", body);
    },
    renameBrowserProfile(id: Id, name: string): Promise<BrowserProfile> {
      return request<BrowserProfile>("PATCH", `/profiles/${id}/`, { name });
    },
    deleteBrowserProfile(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/profiles/${id}/`);
    },
    forgetProfileOrigin(id: Id, origin: string): Promise<BrowserProfile> {
      return request<BrowserProfile>("POST", `/profiles/${id}/forget/`, { origin });
    },
    /** The owner's storage-state JSON (cookies included). */
    exportBrowserProfile(id: Id): Promise<unknown> {
      return request<unknown>("GET", `/profiles/${id}/export/`);
    },
    getConversationProfile(conversationId: Id): Promise<ConversationProfile> {
      return request<ConversationProfile>("GET", `/conversations/${conversationId}/profile/`);
    },
    setConversationProfile(conversationId: Id, profile: Id, mode: ProfileMode): Promise<ConversationProfile> {
      return request<ConversationProfile>("PUT", `/conversations/${conversationId}/profile/`, { profile, mode });
    },
    clearConversationProfile(conversationId: Id): Promise<void> {
      return request<undefined>("DELETE", `/conversations/${conversationId}/profile/`);
    },
    /** Saves the conversation's browser as it is now as a profile of the caller's. */
    captureConversationProfile(conversationId: Id, name: string): Promise<BrowserProfile> {
      return request<BrowserProfile>("POST", `/conversations/${conversationId}/profile/`, { name });
    },
  };
}
