// Types mirroring docs/architecture.md (REST API and websocket protocol). Keep them in step with it.

export type Id = number;

export interface User {
  id: Id;
  username: string;
}

export type RunStatus = "queued" | "running" | "waiting" | "succeeded" | "failed" | "aborted";

export interface Conversation {
  id: Id;
  title: string;
  created_at: string;
  updated_at: string;
  last_run_status: RunStatus | null;
}

export type MessageRole = "user" | "assistant" | "tool" | "system";

export interface Message {
  id: Id;
  conversation: Id;
  role: MessageRole;
  content: string;
  run: Id | null;
  created_at: string;
}

export type StepKind = "thought" | "action" | "system";
export type StepStatus = "running" | "succeeded" | "failed";

export interface Step {
  id: Id;
  run: Id;
  index: number;
  kind: StepKind;
  action: string;
  arguments: unknown;
  observation: string;
  status: StepStatus;
  error: string;
  started_at: string | null;
  duration_ms: number | null;
  screenshot_url: string | null;
}

export interface Run {
  id: Id;
  conversation: Id;
  status: RunStatus;
  error: string;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  steps?: Step[];
}

export interface SendMessageBody {
  content: string;
  tab_ids?: string[];
}

export interface SendMessageResult {
  message: Message;
  run: Run;
}

/** A browser action run by hand (POST /api/conversations/<id>/actions/), recorded as a one-step run. */
export type BrowserAction =
  | "navigate"
  | "go_back"
  | "go_forward"
  | "refresh"
  | "switch_tab"
  | "open_tab"
  | "close_tab";

export interface ActionBody {
  action: BrowserAction;
  arguments?: Record<string, unknown>;
}

/** A file uploaded to a conversation (POST /api/conversations/<id>/files/); the agent's `upload_file` takes its id. */
export interface UploadedFile {
  id: Id;
  name: string;
  size: number;
}

export interface Credentials {
  username: string;
  password: string;
}

/** A tab of the conversation's browser session; ids come from the browser pool and are strings. */
export interface Tab {
  id: string;
  title: string;
  url: string;
  favicon: string;
  active: boolean;
}

// Websocket /ws/conversations/<id>/ — server → client.

export interface HelloEvent {
  type: "hello";
  conversation: Conversation;
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
export interface FrameEvent {
  type: "frame";
  /** base64 JPEG */
  data: string;
  width: number;
  height: number;
  tab: string;
  ts: number;
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
  | ConversationUpdatedEvent
  | RunUpdatedEvent
  | MessageCreatedEvent
  | AssistantDeltaEvent
  | StepCreatedEvent
  | StepUpdatedEvent
  | TabsUpdatedEvent
  | FrameEvent
  | ErrorEvent
  | PongEvent;

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
export type ClientMessage = { type: "ping" } | { type: "frame.ack" } | ({ type: "input" } & InputCommand);
