// The websocket /ws/conversations/<id>/ protocol, both ways.

import type { Conversation, Message } from "./conversations";
import type { Id } from "./id";
import type { Confirmation, PlanStep, Run, Step } from "./runs";
import type { ControlState, PresenceViewer, Role } from "./sharing";
import type { Tab, TabContext } from "./tabs";
import type { PageTools } from "./tools";

// Websocket /ws/conversations/<id>/ — server → client.

export interface HelloEvent {
  type: "hello";
  conversation: Conversation;
  /** This socket's access. */
  role?: Role;
  control?: ControlState;
}
/** Who is watching, once per person, earliest first; sent as people come, go or change role. */
export interface PresenceEvent {
  type: "presence";
  viewers: PresenceViewer[];
}
/** Someone took the browser's controls or handed them back. */
export interface ControlUpdatedEvent {
  type: "control.updated";
  holder: string | null;
}
/** Your own role changed (the owner re-roled your share). Losing access closes the socket with 4403 instead. */
export interface AccessUpdatedEvent {
  type: "access.updated";
  role: Role;
}
/** Sent when a conversation changes (e.g. the server titles it); not yet in docs/architecture.md. */
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
  run: Id;
  delta: string;
}
export interface StepCreatedEvent {
  type: "step.created";
  step: Step;
}
export interface StepUpdatedEvent {
  type: "step.updated";
  step: Step;
}
export interface TabsUpdatedEvent {
  type: "tabs.updated";
  tabs: Tab[];
}
/** A tab added to the context was read (or read again). */
export interface TabContentEvent {
  type: "tab.content";
  content: TabContext;
}
/** A tab was taken out of the context. */
export interface TabContentRemovedEvent {
  type: "tab.content.removed";
  tab_id: string;
}
/** The active tab's WebMCP tools or SKILL health changed. */
export interface ToolsUpdatedEvent extends PageTools {
  type: "tools.updated";
}
export interface FrameEvent {
  type: "frame";
  /** base64 JPEG */
  data: string;
  width: number;
  height: number;
  tab: string;
  ts: number;
}
export interface ConfirmationRequestedEvent {
  type: "confirmation.requested";
  confirmation: Confirmation;
}
export interface ConfirmationUpdatedEvent {
  type: "confirmation.updated";
  confirmation: Confirmation;
}
export interface PlanUpdatedEvent {
  type: "plan.updated";
  run: Id;
  steps: PlanStep[];
}
export interface ErrorEvent {
  type: "error";
  detail: string;
}
export interface PongEvent {
  type: "pong";
}

export type ServerEvent =
  | HelloEvent
  | PresenceEvent
  | ControlUpdatedEvent
  | AccessUpdatedEvent
  | ConversationUpdatedEvent
  | RunUpdatedEvent
  | MessageCreatedEvent
  | AssistantDeltaEvent
  | StepCreatedEvent
  | StepUpdatedEvent
  | TabsUpdatedEvent
  | TabContentEvent
  | TabContentRemovedEvent
  | ToolsUpdatedEvent
  | ConfirmationRequestedEvent
  | ConfirmationUpdatedEvent
  | PlanUpdatedEvent
  | FrameEvent
  | ErrorEvent
  | PongEvent;

// Websocket /ws/me/ — server → client: what concerns the signed-in user beyond the open conversation.

/** A conversation was shared with you, or your role in it changed: as you see it in your list. */
export interface ConversationSharedEvent {
  type: "conversation.shared";
  conversation: Conversation;
}
/** You can no longer see a conversation (its share was revoked, or it was deleted). */
export interface ConversationUnsharedEvent {
  type: "conversation.unshared";
  conversation: Id;
}

export type UserEvent = ConversationSharedEvent | ConversationUnsharedEvent | ErrorEvent | PongEvent;

export type ServerEventType = ServerEvent["type"];
export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>;

// Websocket — client → server.

/** `down`/`up` press and release a button (a drag: down, moves, up); `click` is both at one point. */
export type InputKind = "click" | "move" | "down" | "up" | "wheel" | "key" | "text";
export type MouseButton = "left" | "middle" | "right";
/** Lower-case modifier names, as browser_pool/input.py (MODIFIER_BITS) accepts them. */
export type Modifier = "alt" | "control" | "meta" | "shift";

export interface InputCommand {
  kind: InputKind;
  /** 0–1 of the picture's width */
  x: number;
  /** 0–1 of the picture's height */
  y: number;
  button?: MouseButton;
  delta_x?: number;
  delta_y?: number;
  key?: string;
  text?: string;
  modifiers?: Modifier[];
}

/**
 * `frame.ack` tells the server the last frame was drawn (or dropped), so it may send the next one: the
 * server paces frames per viewer on it (webapp/conversations/consumers.py; not yet in docs/architecture.md).
 */
export type ClientMessage =
  | { type: "ping" }
  | { type: "frame.ack" }
  | { type: "control.take" }
  | { type: "control.release" }
  | ({ type: "input" } & InputCommand);
