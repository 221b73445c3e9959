// Conversations, their messages, and the files uploaded to them.

import type { Request } from "../http";
import type {
  Conversation,
  ConversationFile,
  ConversationInput,
  Id,
  Message,
  SendMessageBody,
  SendMessageResult,
  UploadedFile,
} from "../types";

export type ConversationsApi = ReturnType<typeof conversationsApi>;

export function conversationsApi(request: Request) {
  return {
    listConversations(): Promise<Conversation[]> {
      return request<Conversation[]>("GET", "/conversations/");
    },
    /** Starts a conversation; a string is its title, an object may also carry its settings. */
    createConversation(input?: string | ConversationInput): Promise<Conversation> {
      const body = typeof input === "string" ? (input ? { title: input } : {}) : (input ?? {});
      return request<Conversation>("POST", "/conversations/", body);
    },
    getConversation(id: Id): Promise<Conversation> {
      return request<Conversation>("GET", `/conversations/${id}/`);
    },
    renameConversation(id: Id, title: string): Promise<Conversation> {
      return request<Conversation>("PATCH", `/conversations/${id}/`, { title });
    },
    /** Changes any of: title, model_profile (null = the server default), show_reasoning, confirm_mode. */
    updateConversation(id: Id, patch: ConversationInput): Promise<Conversation> {
      return request<Conversation>("PATCH", `/conversations/${id}/`, patch);
    },
    deleteConversation(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/conversations/${id}/`);
    },
    listMessages(conversationId: Id): Promise<Message[]> {
      return request<Message[]>("GET", `/conversations/${conversationId}/messages/`);
    },
    sendMessage(conversationId: Id, body: SendMessageBody): Promise<SendMessageResult> {
      return request<SendMessageResult>("POST", `/conversations/${conversationId}/messages/`, body);
    },
    /** The conversation's files, uploads and downloads alike, oldest first. */
    listFiles(conversationId: Id): Promise<ConversationFile[]> {
      return request<ConversationFile[]>("GET", `/conversations/${conversationId}/files/`);
    },
    /** Uploads a file the agent may put into a page (multipart, field `file`). */
    uploadFile(conversationId: Id, file: Blob, name?: string): Promise<UploadedFile> {
      const form = new FormData();
      if (name !== undefined) form.append("file", file, name);
      else form.append("file", file);
      return request<UploadedFile>("POST", `/conversations/${conversationId}/files/`, form);
    },
  };
}
