// Generated from webapp/core/events.py by `make protocol`: do not edit; change the Python and run it again.
// The websocket events, server → dashboard.

import type { Conversation, ConversationFile, Message } from "./conversations";
import type { Confirmation, PlanStep, Run, Step } from "./runs";
import type { ControlState, PresenceViewer, Role } from "./sharing";
import type { Tab, TabContext } from "./tabs";
import type { PageTools } from "./tools";

/**
 * What any of the dashboard's sockets receives: on a conversation, or its user's own (/ws/me/).
 */
export type WebsocketEvent = ServerEvent | UserEvent;
/**
 * What a socket on a conversation receives.
 */
export type ServerEvent = ConversationEvent | SocketEvent;
export type ConversationEvent =
  | PresenceEvent
  | ControlUpdatedEvent
  | ConversationUpdatedEvent
  | RunUpdatedEvent
  | MessageCreatedEvent
  | AssistantDeltaEvent
  | StepEvent
  | TabsUpdatedEvent
  | SessionNoticeEvent
  | FileCreatedEvent
  | TabContentEvent
  | TabContentRemovedEvent
  | ToolsUpdatedEvent
  | ConfirmationEvent
  | PlanUpdatedEvent;
export type ToolsUpdatedEvent = PageTools & {
  type: "tools.updated";
};
export type SocketEvent = HelloEvent | AccessUpdatedEvent | LiveUpdatedEvent | FrameEvent | ErrorEvent | PongEvent;
export type UserEvent = ConversationSharedEvent | ConversationUnsharedEvent | PersonWantedEvent;

export interface PresenceEvent {
  type: "presence";
  viewers: PresenceViewer[];
}
export interface ControlUpdatedEvent {
  type: "control.updated";
  holder: string | null;
}
export interface ConversationUpdatedEvent {
  type: "conversation.updated";
  conversation: Conversation;
}
export interface RunUpdatedEvent {
  type: "run.updated";
  run: Run;
}
export interface MessageCreatedEvent {
  type: "message.created";
  message: Message;
}
export interface AssistantDeltaEvent {
  type: "assistant.delta";
  run: number;
  delta: string;
}
export interface StepEvent {
  type: "step.created" | "step.updated";
  step: Step;
}
export interface TabsUpdatedEvent {
  type: "tabs.updated";
  tabs: Tab[];
}
/**
 * The browser pool closed tabs of the session on its own (past its limits), or put the session away.
 */
export interface SessionNoticeEvent {
  type: "session.notice";
  kind: "tabs" | "busy" | "memory" | "evicted" | "download";
  text: string;
  tab_id: string;
}
/**
 * A file was added to the conversation: a person uploaded it, or its browser downloaded it.
 */
export interface FileCreatedEvent {
  type: "file.created";
  file: ConversationFile;
}
export interface TabContentEvent {
  type: "tab.content";
  content: TabContext;
}
export interface TabContentRemovedEvent {
  type: "tab.content.removed";
  tab_id: string;
}
export interface ConfirmationEvent {
  type: "confirmation.requested" | "confirmation.updated";
  confirmation: Confirmation;
}
export interface PlanUpdatedEvent {
  type: "plan.updated";
  run: number;
  steps: PlanStep[];
}
export interface HelloEvent {
  type: "hello";
  conversation: Conversation;
  role: Role;
  control: ControlState;
  live: boolean;
}
export interface AccessUpdatedEvent {
  type: "access.updated";
  role: Role;
}
export interface LiveUpdatedEvent {
  type: "live.updated";
  live: boolean;
}
export interface FrameEvent {
  data: string;
  width: number;
  height: number;
  tab: string;
  ts: number;
  type: "frame";
}
export interface ErrorEvent {
  type: "error";
  detail: string;
}
export interface PongEvent {
  type: "pong";
}
/**
 * A conversation was shared with the user, or their role in it changed.
 */
export interface ConversationSharedEvent {
  type: "conversation.shared";
  conversation: Conversation;
}
/**
 * The user can no longer see a conversation: the share was revoked, or the conversation deleted.
 */
export interface ConversationUnsharedEvent {
  type: "conversation.unshared";
  conversation: number;
}
/**
 * The agent in one of the user's conversations asks for a person to take over its browser (ask_person).
 */
export interface PersonWantedEvent {
  type: "person.wanted";
  conversation: number;
  title: string;
  reason: string;
}
