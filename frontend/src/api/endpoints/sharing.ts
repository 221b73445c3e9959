// Sharing (owner only, except a link's own page and the browser's controls): shares, links, and who holds the
// browser's controls.

import type { Request } from "../http";
import type { ControlState, Conversation, Id, Share, ShareInput, ShareLinkInput, ShareLinkPreview, ShareRole } from "../types";

export type SharingApi = ReturnType<typeof sharingApi>;

export function sharingApi(request: Request) {
  return {
    /** The conversation's shares and links that were not revoked (expired ones marked `expired`). */
    listShares(conversationId: Id): Promise<Share[]> {
      return request<Share[]>("GET", `/conversations/${conversationId}/shares/`);
    },
    /** Shares with a teammate by username (201), or changes their role when they already have a share (200). */
    createShare(conversationId: Id, body: ShareInput): Promise<Share> {
      return request<Share>("POST", `/conversations/${conversationId}/shares/`, body);
    },
    updateShare(conversationId: Id, shareId: Id, role: ShareRole): Promise<Share> {
      return request<Share>("PATCH", `/conversations/${conversationId}/shares/${shareId}/`, { role });
    },
    /** Revokes a share (or a link, and everyone who joined through it); their open pages are cut at once. */
    revokeShare(conversationId: Id, shareId: Id): Promise<void> {
      return request<undefined>("DELETE", `/conversations/${conversationId}/shares/${shareId}/`);
    },
    createShareLink(conversationId: Id, body: ShareLinkInput): Promise<Share> {
      return request<Share>("POST", `/conversations/${conversationId}/share-links/`, body);
    },
    /** What a link opens; 404 unknown, 410 revoked or expired. */
    getShareLink(token: string): Promise<ShareLinkPreview> {
      return request<ShareLinkPreview>("GET", `/share-links/${encodeURIComponent(token)}/`);
    },
    /** Accepts a link: the signed-in user gets a share of their own; answers the conversation as they see it. */
    acceptShareLink(token: string): Promise<Conversation> {
      return request<Conversation>("POST", `/share-links/${encodeURIComponent(token)}/accept/`);
    },
    getControl(conversationId: Id): Promise<ControlState> {
      return request<ControlState>("GET", `/conversations/${conversationId}/control/`);
    },
    /** Takes the live browser's controls (the agent pauses after its step) or hands them back; 409 while another holds them. */
    setControl(conversationId: Id, action: "take" | "release"): Promise<ControlState> {
      return request<ControlState>("POST", `/conversations/${conversationId}/control/`, { action });
    },
  };
}
