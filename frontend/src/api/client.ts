// Typed client for the REST API under /api/ (docs/architecture.md). The dashboard authenticates
// with Django's session cookie and sends X-CSRFToken, read from the csrftoken cookie, on unsafe methods.

import type {
  ActionBody,
  Confirmation,
  ConnectionCheck,
  ControlState,
  Conversation,
  ConversationInput,
  ConversationSkill,
  Credentials,
  Id,
  Message,
  ModelProfile,
  ModelProfileInput,
  ModelProviders,
  Note,
  NoteInput,
  PageTools,
  Persona,
  PersonaInput,
  Run,
  RunDebug,
  SendMessageBody,
  SendMessageResult,
  Share,
  ShareInput,
  ShareLinkInput,
  ShareLinkPreview,
  ShareRole,
  Tab,
  ToolCallBody,
  UploadedFile,
  User,
  Workflow,
  WorkflowPatch,
  WorkflowRun,
  WebhookDelivery,
  WorkflowSchedule,
  WorkflowScheduleInput,
  WorkflowWebhook,
  WorkflowVersion,
} from "./types";

export type * from "./types";

/** A 4xx/5xx answer (or a network failure, status 0) with the API's error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | null;
  readonly fieldErrors: Record<string, string[]>;

  constructor(status: number, body: unknown, fallback: string) {
    const { detail, fieldErrors } = parseErrorBody(body);
    super(detail ?? firstFieldError(fieldErrors) ?? fallback);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.fieldErrors = fieldErrors;
  }

  /** Every message worth showing: the detail, then each field's errors ("username: taken"). */
  get messages(): string[] {
    const out: string[] = [];
    if (this.detail) out.push(this.detail);
    for (const [field, errors] of Object.entries(this.fieldErrors)) {
      const prefix = field === "non_field_errors" ? "" : `${humanizeField(field)}: `;
      for (const error of errors) out.push(prefix + error);
    }
    if (out.length === 0) out.push(this.message);
    return out;
  }

  /** One line for a notice: the detail and every field's messages, without field names. */
  get summary(): string {
    const parts = [this.detail, ...Object.values(this.fieldErrors).flat()].filter((m): m is string => !!m?.trim());
    const text = parts.length ? parts.join(" · ") : this.message;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
}

/** Splits `{"detail": ...}` or `{"field": ["message", ...]}` into its parts. */
export function parseErrorBody(body: unknown): { detail: string | null; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  if (typeof body === "string") return { detail: body.trim() || null, fieldErrors };
  if (Array.isArray(body)) return { detail: body.map(String).join(" ") || null, fieldErrors };
  if (!body || typeof body !== "object") return { detail: null, fieldErrors };
  let detail: string | null = null;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === "detail") {
      detail = typeof value === "string" ? value : JSON.stringify(value);
    } else if (Array.isArray(value)) {
      fieldErrors[key] = value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
    } else if (typeof value === "string") {
      fieldErrors[key] = [value];
    } else if (value !== null && value !== undefined) {
      fieldErrors[key] = [JSON.stringify(value)];
    }
  }
  return { detail, fieldErrors };
}

function firstFieldError(fieldErrors: Record<string, string[]>): string | null {
  for (const errors of Object.values(fieldErrors)) if (errors[0]) return errors[0];
  return null;
}

function humanizeField(field: string): string {
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Reads one cookie from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface ApiClientOptions {
  base?: string;
  fetch?: typeof fetch;
  cookies?: () => string;
}

export class ApiClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly cookies: () => string;

  constructor(options: ApiClientOptions = {}) {
    this.base = options.base ?? "/api";
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.cookies = options.cookies ?? (() => document.cookie);
  }

  // Auth

  csrf(): Promise<void> {
    return this.request<undefined>("GET", "/auth/csrf/");
  }
  me(): Promise<User> {
    return this.request<User>("GET", "/auth/me/");
  }
  signup(credentials: Credentials): Promise<User> {
    return this.request<User>("POST", "/auth/signup/", credentials);
  }
  login(credentials: Credentials): Promise<User> {
    return this.request<User>("POST", "/auth/login/", credentials);
  }
  logout(): Promise<void> {
    return this.request<undefined>("POST", "/auth/logout/");
  }
  createToken(): Promise<{ token: string }> {
    return this.request<{ token: string }>("POST", "/auth/token/");
  }
  revokeToken(): Promise<void> {
    return this.request<undefined>("DELETE", "/auth/token/");
  }

  // Conversations

  listConversations(): Promise<Conversation[]> {
    return this.request<Conversation[]>("GET", "/conversations/");
  }
  /** Starts a conversation; a string is its title, an object may also carry its settings. */
  createConversation(input?: string | ConversationInput): Promise<Conversation> {
    const body = typeof input === "string" ? (input ? { title: input } : {}) : (input ?? {});
    return this.request<Conversation>("POST", "/conversations/", body);
  }
  getConversation(id: Id): Promise<Conversation> {
    return this.request<Conversation>("GET", `/conversations/${id}/`);
  }
  renameConversation(id: Id, title: string): Promise<Conversation> {
    return this.request<Conversation>("PATCH", `/conversations/${id}/`, { title });
  }
  /** Changes any of: title, model_profile (null = the server default), show_reasoning, confirm_mode. */
  updateConversation(id: Id, patch: ConversationInput): Promise<Conversation> {
    return this.request<Conversation>("PATCH", `/conversations/${id}/`, patch);
  }
  deleteConversation(id: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/conversations/${id}/`);
  }

  // Messages, runs, steps

  listMessages(conversationId: Id): Promise<Message[]> {
    return this.request<Message[]>("GET", `/conversations/${conversationId}/messages/`);
  }
  sendMessage(conversationId: Id, body: SendMessageBody): Promise<SendMessageResult> {
    return this.request<SendMessageResult>("POST", `/conversations/${conversationId}/messages/`, body);
  }
  listRuns(conversationId: Id): Promise<Run[]> {
    return this.request<Run[]>("GET", `/conversations/${conversationId}/runs/`);
  }
  getRun(runId: Id): Promise<Run> {
    return this.request<Run>("GET", `/runs/${runId}/`);
  }
  abortRun(runId: Id): Promise<Run> {
    return this.request<Run>("POST", `/runs/${runId}/abort/`);
  }
  /** What the model saw: every request the run sent to the model, and the tabs shared with it. */
  getRunDebug(runId: Id): Promise<RunDebug> {
    return this.request<RunDebug>("GET", `/runs/${runId}/debug/`);
  }
  /** Approves or denies a step waiting for the user; 409 when already answered or expired. */
  answerConfirmation(confirmationId: Id, approve: boolean): Promise<Confirmation> {
    return this.request<Confirmation>("POST", `/confirmations/${confirmationId}/answer/`, { approve });
  }
  /** The session's tabs as last saved, each with what was read from it when it is in the context. */
  listTabs(conversationId: Id): Promise<Tab[]> {
    return this.request<Tab[]>("GET", `/conversations/${conversationId}/tabs/`);
  }
  /**
   * Adds a tab to the context, or reads it again: 202 at once; the worker reads the page and a `tab.content`
   * event brings what it read. 404 when the browser has no such tab.
   */
  readTab(conversationId: Id, tabId: string): Promise<void> {
    return this.request<undefined>("POST", `/conversations/${conversationId}/tabs/${encodeURIComponent(tabId)}/content/`);
  }
  /** Takes a tab out of the context (a `tab.content.removed` event follows). */
  removeTabContent(conversationId: Id, tabId: string): Promise<void> {
    return this.request<undefined>("DELETE", `/conversations/${conversationId}/tabs/${encodeURIComponent(tabId)}/content/`);
  }

  // WebMCP tools and SKILLs

  /** The active tab's WebMCP tools (the page's and SKILLs') and the health of the SKILLs matching it. */
  getTools(conversationId: Id): Promise<PageTools> {
    return this.request<PageTools>("GET", `/conversations/${conversationId}/tools/`);
  }
  /** Calls a tool of the active tab by hand: 202 with a Run whose one step carries the result and a screenshot. */
  callTool(conversationId: Id, body: ToolCallBody): Promise<Run> {
    return this.request<Run>("POST", `/conversations/${conversationId}/tools/call/`, body);
  }
  /** Every SKILL of the library, with whether it is on in this conversation. */
  listConversationSkills(conversationId: Id): Promise<ConversationSkill[]> {
    return this.request<ConversationSkill[]>("GET", `/conversations/${conversationId}/skills/`);
  }
  setConversationSkill(conversationId: Id, skillId: Id, enabled: boolean): Promise<ConversationSkill> {
    return this.request<ConversationSkill>("POST", `/conversations/${conversationId}/skills/${skillId}/`, { enabled });
  }

  // Notes and personas

  listNotes(): Promise<Note[]> {
    return this.request<Note[]>("GET", "/notes/");
  }
  createNote(body: NoteInput): Promise<Note> {
    return this.request<Note>("POST", "/notes/", body);
  }
  updateNote(id: Id, body: NoteInput): Promise<Note> {
    return this.request<Note>("PATCH", `/notes/${id}/`, body);
  }
  deleteNote(id: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/notes/${id}/`);
  }
  listPersonas(): Promise<Persona[]> {
    return this.request<Persona[]>("GET", "/personas/");
  }
  createPersona(body: PersonaInput): Promise<Persona> {
    return this.request<Persona>("POST", "/personas/", body);
  }
  updatePersona(id: Id, body: PersonaInput): Promise<Persona> {
    return this.request<Persona>("PATCH", `/personas/${id}/`, body);
  }
  deletePersona(id: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/personas/${id}/`);
  }

  // Workflows

  listWorkflows(): Promise<Workflow[]> {
    return this.request<Workflow[]>("GET", "/workflows/");
  }
  saveWorkflow(runId: Id, name: string): Promise<Workflow> {
    return this.request<Workflow>("POST", `/runs/${runId}/workflow/`, { name });
  }
  runWorkflow(workflowId: Id, parameters: Record<string, string>): Promise<Run> {
    return this.request<Run>("POST", `/workflows/${workflowId}/runs/`, { parameters });
  }
  listWorkflowRuns(workflowId: Id): Promise<WorkflowRun[]> {
    return this.request<WorkflowRun[]>("GET", `/workflows/${workflowId}/runs/`);
  }
  shareWorkflow(workflowId: Id, username: string, role: "viewer" | "controller"): Promise<{ id: Id; username: string; role: string }> {
    return this.request("POST", `/workflows/${workflowId}/shares/`, { username, role });
  }
  deleteWorkflow(workflowId: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/workflows/${workflowId}/`);
  }
  /** Renames and new defaults of parameters and the edited steps, in one request (a new version). */
  updateWorkflow(workflowId: Id, patch: WorkflowPatch): Promise<Workflow> {
    return this.request<Workflow>("PATCH", `/workflows/${workflowId}/`, patch);
  }
  listWorkflowVersions(workflowId: Id): Promise<WorkflowVersion[]> {
    return this.request<WorkflowVersion[]>("GET", `/workflows/${workflowId}/versions/`);
  }
  setWorkflowWebhook(workflowId: Id, url: string): Promise<WorkflowWebhook> {
    return this.request<WorkflowWebhook>("POST", `/workflows/${workflowId}/webhook/`, { url });
  }
  removeWorkflowWebhook(workflowId: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/workflows/${workflowId}/webhook/`);
  }
  listWebhookDeliveries(workflowId: Id): Promise<WebhookDelivery[]> {
    return this.request<WebhookDelivery[]>("GET", `/workflows/${workflowId}/deliveries/`);
  }
  listWorkflowSchedules(workflowId: Id): Promise<WorkflowSchedule[]> {
    return this.request<WorkflowSchedule[]>("GET", `/workflows/${workflowId}/schedules/`);
  }
  createWorkflowSchedule(workflowId: Id, body: WorkflowScheduleInput): Promise<WorkflowSchedule> {
    return this.request<WorkflowSchedule>("POST", `/workflows/${workflowId}/schedules/`, body);
  }
  deleteWorkflowSchedule(workflowId: Id, scheduleId: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/workflows/${workflowId}/schedules/${scheduleId}/`);
  }

  // Model profiles

  listModelProfiles(): Promise<ModelProfile[]> {
    return this.request<ModelProfile[]>("GET", "/model-profiles/");
  }
  createModelProfile(body: ModelProfileInput): Promise<ModelProfile> {
    return this.request<ModelProfile>("POST", "/model-profiles/", body);
  }
  /** A partial update: a missing `api_key` keeps the stored key, `api_key: ""` removes it. */
  updateModelProfile(id: Id, body: ModelProfileInput): Promise<ModelProfile> {
    return this.request<ModelProfile>("PATCH", `/model-profiles/${id}/`, body);
  }
  deleteModelProfile(id: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/model-profiles/${id}/`);
  }
  /** Sends the profile's model a tiny request: whether it answered, and how fast. */
  testModelProfile(id: Id): Promise<ConnectionCheck> {
    return this.request<ConnectionCheck>("POST", `/model-profiles/${id}/test/`);
  }
  /** Provider presets (default base URL, capabilities) and the server's default model, if any. */
  listModelProviders(): Promise<ModelProviders> {
    return this.request<ModelProviders>("GET", "/model-providers/");
  }

  // Sharing (owner only, except the link's own page and the browser's controls)

  /** The conversation's shares and links that were not revoked (expired ones marked `expired`). */
  listShares(conversationId: Id): Promise<Share[]> {
    return this.request<Share[]>("GET", `/conversations/${conversationId}/shares/`);
  }
  /** Shares with a teammate by username (201), or changes their role when they already have a share (200). */
  createShare(conversationId: Id, body: ShareInput): Promise<Share> {
    return this.request<Share>("POST", `/conversations/${conversationId}/shares/`, body);
  }
  updateShare(conversationId: Id, shareId: Id, role: ShareRole): Promise<Share> {
    return this.request<Share>("PATCH", `/conversations/${conversationId}/shares/${shareId}/`, { role });
  }
  /** Revokes a share (or a link, and everyone who joined through it); their open pages are cut at once. */
  revokeShare(conversationId: Id, shareId: Id): Promise<void> {
    return this.request<undefined>("DELETE", `/conversations/${conversationId}/shares/${shareId}/`);
  }
  createShareLink(conversationId: Id, body: ShareLinkInput): Promise<Share> {
    return this.request<Share>("POST", `/conversations/${conversationId}/share-links/`, body);
  }
  /** What a link opens; 404 unknown, 410 revoked or expired. */
  getShareLink(token: string): Promise<ShareLinkPreview> {
    return this.request<ShareLinkPreview>("GET", `/share-links/${encodeURIComponent(token)}/`);
  }
  /** Accepts a link: the signed-in user gets a share of their own; answers the conversation as they see it. */
  acceptShareLink(token: string): Promise<Conversation> {
    return this.request<Conversation>("POST", `/share-links/${encodeURIComponent(token)}/accept/`);
  }
  getControl(conversationId: Id): Promise<ControlState> {
    return this.request<ControlState>("GET", `/conversations/${conversationId}/control/`);
  }
  /** Takes the live browser's controls (the agent pauses after its step) or hands them back; 409 while another holds them. */
  setControl(conversationId: Id, action: "take" | "release"): Promise<ControlState> {
    return this.request<ControlState>("POST", `/conversations/${conversationId}/control/`, { action });
  }

  // The conversation's browser by hand

  /** Runs one browser action (navigate, go_back, switch_tab …): 202 with the Run; 409 while a run is active. */
  runAction(conversationId: Id, body: ActionBody): Promise<Run> {
    return this.request<Run>("POST", `/conversations/${conversationId}/actions/`, {
      action: body.action,
      arguments: body.arguments ?? {},
    });
  }
  /** Uploads a file the agent may put into a page (multipart, field `file`). */
  uploadFile(conversationId: Id, file: Blob, name?: string): Promise<UploadedFile> {
    const form = new FormData();
    if (name !== undefined) form.append("file", file, name);
    else form.append("file", file);
    return this.request<UploadedFile>("POST", `/conversations/${conversationId}/files/`, form);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    // FormData goes as is: the browser sets the multipart Content-Type with its boundary.
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
    if (UNSAFE_METHODS.has(method)) {
      const token = readCookie(this.cookies(), "csrftoken");
      if (token) headers["X-CSRFToken"] = token;
    }
    let response: Response;
    try {
      response = await this.fetchImpl(this.base + path, {
        method,
        headers,
        credentials: "same-origin",
        body: body === undefined ? null : multipart ? body : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, null, "Cannot reach the server. Check your connection and try again.");
    }
    const payload = await readBody(response);
    if (!response.ok)
      throw new ApiError(response.status, payload, `${response.status} ${response.statusText || "error"}`);
    return payload as T;
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  // An HTML error page (e.g. Django's 500 page) is not worth showing verbatim.
  return type.includes("html") ? null : text;
}
