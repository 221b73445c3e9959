// Types mirroring docs/architecture.md (REST API and websocket protocol). Keep them in step with it.

export type Id = number;

export interface User {
  id: Id;
  username: string;
}

export type RunStatus = "queued" | "running" | "waiting" | "succeeded" | "failed" | "aborted";

/** `confirm`: ask before every page or SKILL tool that changes something; `auto`: run them without asking. */
export type ConfirmMode = "confirm" | "auto";

export interface Conversation {
  id: Id;
  title: string;
  created_at: string;
  updated_at: string;
  last_run_status: RunStatus | null;
  /** The model profile the agent uses; null = the server's default model. */
  model_profile?: Id | null;
  /** Record the model's reasoning as "thought" steps. */
  show_reasoning?: boolean;
  confirm_mode?: ConfirmMode;
  /** The owner's username. */
  owner?: string;
  /** The reader's access: their own, or shared with them as controller or viewer. */
  role?: Role;
  /** Someone else's conversation, shared with the reader. */
  shared?: boolean;
}

// Sharing (SPEC §7): shares by username and expiring links, who is watching, who holds the browser.

/** Access to a conversation: its owner, a controller (may act), a viewer (watches). */
export type Role = "owner" | "controller" | "viewer";
/** The role a share grants. */
export type ShareRole = "viewer" | "controller";

/** A teammate's access (`kind: "user"`) or an expiring link anyone signed in may open (`kind: "link"`). */
export interface Share {
  id: Id;
  conversation: Id;
  kind: "user" | "link";
  /** The teammate's username (user shares). */
  user: string | null;
  role: ShareRole;
  /** The link's token (links); its page is `/share/<token>`. */
  token: string | null;
  /** The link this teammate joined through. */
  via_link: Id | null;
  expires_at: string | null;
  expired: boolean;
  created_by: string;
  created_at: string;
}

export interface ShareInput {
  username: string;
  role?: ShareRole;
}

export interface ShareLinkInput {
  role?: ShareRole;
  /** 1–43200 (30 days); the server's default is a day. */
  expires_in_minutes?: number;
}

/** GET /api/share-links/<token>/: what a link opens. */
export interface ShareLinkPreview {
  conversation: Id;
  title: string;
  owner: string;
  role: ShareRole;
  expires_at: string;
}

/** Who holds the live browser's controls (a username), or nobody (the agent has it). */
export interface ControlState {
  holder: string | null;
}

/** One person watching the conversation (several tabs count once). */
export interface PresenceViewer {
  username: string;
  role: Role;
  since: string;
}

/** The per-conversation settings (PATCH /api/conversations/<id>/, or with POST when creating one). */
export interface ConversationSettings {
  model_profile: Id | null;
  show_reasoning: boolean;
  confirm_mode: ConfirmMode;
}

export interface ConversationInput extends Partial<ConversationSettings> {
  title?: string;
}

export type MessageRole = "user" | "assistant" | "tool" | "system";

export interface Message {
  id: Id;
  conversation: Id;
  role: MessageRole;
  content: string;
  /** Who wrote a user message (a teammate with control writes in a shared conversation); null for the agent. */
  author?: string | null;
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

export type PlanStepStatus = "pending" | "running" | "done" | "failed" | "skipped";

/** One step of the plan the agent published for a run (`run.plan`, `plan.updated`). */
export interface PlanStep {
  id: string;
  title: string;
  depends_on: string[];
  status: PlanStepStatus;
}

export type ConfirmationStatus = "pending" | "approved" | "denied" | "expired";

/** A step waiting for the user's yes; no answer before `expires_at` means no. */
export interface Confirmation {
  id: Id;
  run: Id;
  step: Id | null;
  action: string;
  arguments: unknown;
  reason: string;
  url: string;
  status: ConfirmationStatus;
  /** Username of who answered; null while pending or when it expired. */
  decided_by: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

/** A tab the user shared with a run (its title and URL as they were). */
export interface SharedTab {
  id: string;
  title?: string;
  url?: string;
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
  /** `turn`: the agent's; `action`: a browser action run by hand; `tool`: a page tool called by hand;
   * `workflow`: a saved workflow replayed. */
  kind?: "turn" | "action" | "tool" | "workflow";
  /** While queued: 1 for the next run to be taken, 2 for the one after it ...; null otherwise. */
  queue_position?: number | null;
  plan?: PlanStep[];
  shared_tabs?: SharedTab[];
  /** Only on runs from the REST API (GET .../runs/, GET /api/runs/<id>/). */
  steps?: Step[];
  confirmations?: Confirmation[];
}

/** One request the run sent to the model, exactly as sent (screenshots replaced by their size), and its answer. */
export interface ModelCall {
  index: number;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  duration_ms: number;
  created_at?: string;
}

/** GET /api/runs/<id>/debug/: what the model saw. */
export interface RunDebug {
  run: Id;
  shared_tabs: SharedTab[];
  model_calls: ModelCall[];
}

// Model profiles (GET/POST /api/model-profiles/, GET/PATCH/DELETE /api/model-profiles/<id>/).

export type ProviderId = "openai" | "deepseek" | "qwen" | "glm" | "moonshot" | "ollama" | "custom";

export interface ModelCapabilities {
  supports_tools: boolean;
  supports_vision: boolean;
  parallel_tool_calls: boolean;
}

export interface ModelProfile extends ModelCapabilities {
  id: Id;
  name: string;
  /** A ProviderId, or one this dashboard does not know yet. */
  provider: string;
  base_url: string;
  model: string;
  /** The key itself never comes back. */
  has_api_key: boolean;
  fallback: Id | null;
  created_at: string;
  updated_at: string;
}

/** A create (all but `api_key` and capabilities required) or a partial update. `api_key: ""` removes the key. */
export interface ModelProfileInput extends Partial<ModelCapabilities> {
  name?: string;
  provider?: string;
  base_url?: string;
  model?: string;
  api_key?: string;
  fallback?: Id | null;
}

/** A provider preset: where the service lives and what its models can usually do. */
export interface ModelProvider extends ModelCapabilities {
  id: string;
  label: string;
  base_url: string;
}

export interface ServerDefaultModel {
  base_url: string;
  model: string;
}

/** GET /api/model-providers/ */
export interface ModelProviders {
  providers: ModelProvider[];
  server_default: ServerDefaultModel | null;
}

/** POST /api/model-profiles/<id>/test/ */
export interface ConnectionCheck {
  ok: boolean;
  detail: string;
  latency_ms: number;
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

/** What was read from a tab when it was added to the conversation's context (its text stays on the server). */
export interface TabContext {
  tab_id: string;
  title: string;
  url: string;
  /** How the text was found: "readability", "semantic", "body", or "restricted" / "empty" (no text; see `reason`). */
  method: string;
  /** Length of the whole readable text, before the limit was applied. */
  length: number;
  truncated: boolean;
  /** Why there is no text (a restricted page, a PDF, a closed tab), in words for the user; "" when there is. */
  reason: string;
  extracted_at: string | null;
}

/** A tab of the conversation's browser session; ids come from the browser pool and are strings. */
export interface Tab {
  id: string;
  title: string;
  url: string;
  favicon: string;
  active: boolean;
  /** What was read from it, when it is in the context (GET .../tabs/ and `tabs.updated` carry it). */
  context?: TabContext | null;
}

// WebMCP tools of the active tab (GET /api/conversations/<id>/tools/, `tools.updated`).

/** The page's hints about a tool: hints only, never a grant of trust. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
}

export interface WebTool {
  name: string;
  title: string;
  description: string;
  /** "page": the page registered it; "skill": a SKILL did (named in `skill`). */
  source: "page" | "skill";
  skill: string | null;
  /** A JSON Schema for the tool's arguments (usually an object schema); may be null. */
  input_schema: unknown;
  annotations: ToolAnnotations | null;
  /** A SKILL tool hidden by the page's own tool of the same name. */
  shadowed: boolean;
}

export type SkillHealth = "ok" | "failed" | "off";

/** A SKILL matching the active tab, and how its health check went. */
export interface SkillStatus {
  name: string;
  version: string;
  status: SkillHealth;
  error: string;
}

export interface PageTools {
  /** The active tab's id, or null when there is none. */
  tab: string | null;
  tools: WebTool[];
  skills: SkillStatus[];
}

export interface SkillTool {
  name: string;
  title: string;
  description: string;
  input_schema: unknown;
  annotations: unknown;
}

/** A SKILL of the library with this conversation's switch (GET /api/conversations/<id>/skills/). */
export interface ConversationSkill {
  id: Id;
  name: string;
  version: string;
  description: string;
  match_patterns: string[];
  priority: number;
  tools: SkillTool[];
  enabled_here: boolean;
}

/** POST /api/conversations/<id>/tools/call/ */
export interface ToolCallBody {
  name: string;
  arguments: Record<string, unknown>;
}

// Notes (the agent's memory, found with search_memory) and personas (voices for generate_reply).

export interface Note {
  id: Id;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface NoteInput {
  title?: string;
  body?: string;
}

export interface Persona {
  id: Id;
  name: string;
  voice: string;
  instructions: string;
  created_at: string;
  updated_at: string;
}

export interface PersonaInput {
  name?: string;
  voice?: string;
  instructions?: string;
}

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

// Workflows (GET /api/workflows/, POST /api/runs/<id>/workflow/, POST /api/workflows/<id>/runs/).
export interface WorkflowParameter {
  name: string;
  type: string;
  default: string;
  label: string;
}

/** The element a step was recorded on (null for a step that aims at none, e.g. navigate). */
export interface WorkflowStepTarget {
  tag: string;
  role: string;
  name: string;
}

/** What a replay checks around a step: the page's address before it (an fnmatch pattern), its effects after. */
export interface WorkflowStepChecks {
  url?: string;
  navigated?: true;
  value?: true;
  gone?: true;
}

export interface WorkflowStep {
  action: string;
  arguments: Record<string, unknown>;
  intent: string;
  url: string;
  target?: WorkflowStepTarget | null;
  checks?: WorkflowStepChecks;
  /** An extraction step's named output and its JSON schema. */
  output?: { name: string; schema: Record<string, unknown> } | null;
}

export interface Workflow {
  id: Id;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  version: number | null;
  parameters: WorkflowParameter[];
  steps: WorkflowStep[];
  webhook_url: string;
  /** The caller's access: only the owner changes, schedules or shares it; a controller runs it. */
  access: "owner" | "controller" | "viewer";
  owner: string;
}

/** One replay of a workflow (GET /api/workflows/<id>/runs/). */
export interface WorkflowRun {
  id: Id;
  conversation: Id;
  status: RunStatus;
  error: string;
  version: number | null;
  parameters: Record<string, string>;
  url: string;
  created_at: string;
  finished_at: string | null;
  prompt_tokens: number;
  /** What the replay extracted: output name → JSON value (empty when the workflow extracts nothing). */
  outputs?: Record<string, unknown>;
}

/**
 * One step in `PATCH /api/workflows/<id>/ {"steps": [...]}` (the whole list, in its new order; a step left out is
 * removed). `from` is the step's 0-based position in the current version: it keeps that step's recorded element
 * and whatever is not given.
 */
export interface WorkflowStepEdit {
  from?: number;
  action?: string;
  arguments?: Record<string, unknown>;
  intent?: string;
  checks?: WorkflowStepChecks;
}

export interface WorkflowPatch {
  name?: string;
  description?: string;
  /** Parameter renames, old name → new name. */
  rename?: Record<string, string>;
  defaults?: Record<string, string>;
  steps?: WorkflowStepEdit[];
}

/** GET /api/workflows/<id>/versions/, newest first; `changes` is a unified diff of the steps' lines. */
export interface WorkflowVersion {
  number: number;
  note: string;
  created_at: string;
  source_run: Id | null;
  steps: number;
  changes: string[];
}

/** When a scheduled replay reaches a step that needs a yes: wait for the owner, or stop there. */
export type ScheduleConfirmations = "wait" | "refuse";

export interface WorkflowSchedule {
  id: Id;
  cron: string;
  timezone: string;
  parameters: Record<string, string>;
  confirmations: ScheduleConfirmations;
  last_run: string | null;
  created_at: string;
}

/** A webhook set on a workflow: its secret is shown this once. */
export interface WorkflowWebhook {
  url: string;
  secret: string;
}

export interface WebhookAttempt {
  at: string;
  status_code: number | null;
  error: string;
  ms: number;
}

/** One replay's webhook: what was sent and every attempt. */
export interface WebhookDelivery {
  id: Id;
  run: Id;
  url: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  log: WebhookAttempt[];
  payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface WorkflowScheduleInput {
  cron: string;
  timezone: string;
  parameters: Record<string, string>;
  confirmations: ScheduleConfirmations;
}
