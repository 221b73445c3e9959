// A tiny store: one immutable value, replaced on every change, with subscribers.

import type {
  Confirmation,
  Conversation,
  ConversationFile,
  ConversationSkill,
  Id,
  Message,
  ModelProfile,
  ModelProvider,
  PageTools,
  PlanStep,
  PresenceViewer,
  Role,
  Run,
  ServerDefaultModel,
  SkillStatus,
  Step,
  Tab,
  User,
  WebTool,
} from "./api/types";
import type { SocketStatus } from "./api/socket";
import { initialControl, type ControlView } from "./access";

export type Listener<T> = (state: T, previous: T) => void;

export class Store<T> {
  private state: T;
  private readonly listeners = new Set<Listener<T>>();

  constructor(initial: T) {
    this.state = initial;
  }

  get(): T {
    return this.state;
  }

  set(next: T): void {
    if (Object.is(next, this.state)) return;
    const previous = this.state;
    this.state = next;
    for (const listener of [...this.listeners]) listener(next, previous);
  }

  update(fn: (state: T) => T): void {
    this.set(fn(this.state));
  }

  /** Calls `listener` on every change (and once now, when `immediate`); returns the unsubscribe function. */
  subscribe(listener: Listener<T>, immediate = false): () => void {
    this.listeners.add(listener);
    if (immediate) listener(this.state, this.state);
    return () => this.listeners.delete(listener);
  }
}

/** The user's model profiles, the provider presets and the server's default model. */
export interface ModelsState {
  profiles: ModelProfile[];
  providers: ModelProvider[];
  serverDefault: ServerDefaultModel | null;
  loaded: boolean;
  error: string | null;
}

export const initialModelsState: ModelsState = {
  profiles: [],
  providers: [],
  serverDefault: null,
  loaded: false,
  error: null,
};

/** What the whole app knows: who is signed in, their conversations and their models. */
export interface AppState {
  user: User | null;
  conversations: Conversation[];
  conversationsLoaded: boolean;
  activeConversationId: Id | null;
  models: ModelsState;
}

export const initialAppState: AppState = {
  user: null,
  conversations: [],
  conversationsLoaded: false,
  activeConversationId: null,
  models: initialModelsState,
};

/** Everything shown for one open conversation, built from the REST API and then kept live by the websocket. */
export interface ConversationView {
  id: Id;
  conversation: Conversation | null;
  messages: Message[];
  /** Runs without their steps, oldest first. */
  runs: Run[];
  /** Steps by run id, in step order. */
  steps: Record<Id, Step[]>;
  /** The assistant's reply as it streams in, by run id, until the stored message replaces it. */
  streaming: Record<Id, string>;
  tabs: Tab[];
  loaded: boolean;
  loadError: string | null;
  connection: SocketStatus;
  /** The last command the server refused (an `error` event, or an action or upload the API refused). */
  notice: string | null;
  /** Runs started by hand from this page (address bar, tabs), by id: the action they run. */
  manualRuns: Record<Id, string>;
  /** Files uploaded from this page, shown as chips over the composer; `id` is null while uploading. */
  files: FileChip[];
  /** The files the conversation's browser downloaded, oldest first (shown as cards in their run's block). */
  downloads: ConversationFile[];
  /** Confirmations by run id, oldest first. */
  confirmations: Record<Id, Confirmation[]>;
  /** The plan the agent published, by run id. */
  plans: Record<Id, PlanStep[]>;
  /** The tabs toggled on to go with the next message (kept per conversation; see sharing.ts). */
  sharedTabIds: string[];
  /** Tabs being read into the context, by id: when the read was asked for (ms). */
  readingTabs: Record<string, number>;
  /** The active tab's WebMCP tools and the health of its SKILLs (the Tool Inspector). */
  tools: ToolsView;
  /** The SKILL library with this conversation's switches; null until loaded. */
  skills: ConversationSkill[] | null;
  /** The reader's role as the websocket said it (`hello`, `access.updated`); null until it did (see access.roleOf). */
  role: Role | null;
  /** Who is watching, earliest first (`presence`). */
  presence: PresenceViewer[];
  /** Who holds the live browser's controls, and a take or hand-back in flight. */
  control: ControlView;
  /** The owner revoked the reader's access while the page was open (the socket closed with 4403). */
  revoked: boolean;
}

/** `unavailable`: the server has no tools endpoint (404) — shown as "no tools on this page". */
export type ToolsStatus = "loading" | "ready" | "unavailable" | "error";

export interface ToolsView {
  status: ToolsStatus;
  tab: string | null;
  tools: WebTool[];
  skills: SkillStatus[];
  error: string | null;
}

export const initialToolsView: ToolsView = { status: "loading", tab: null, tools: [], skills: [], error: null };

/** The tools the server listed (a REST answer or a `tools.updated` event). The worker's snapshot may
 * leave a part out when there is nothing to list, so each part is read as optional. */
export function readyToolsView(page: Partial<PageTools>): ToolsView {
  return { status: "ready", tab: page.tab ?? null, tools: page.tools ?? [], skills: page.skills ?? [], error: null };
}

export interface FileChip {
  key: string;
  id: Id | null;
  name: string;
  size: number;
}

export function emptyConversationView(id: Id): ConversationView {
  return {
    id,
    conversation: null,
    messages: [],
    runs: [],
    steps: {},
    streaming: {},
    tabs: [],
    loaded: false,
    loadError: null,
    connection: "connecting",
    notice: null,
    manualRuns: {},
    files: [],
    downloads: [],
    confirmations: {},
    plans: {},
    sharedTabIds: [],
    readingTabs: {},
    tools: initialToolsView,
    skills: null,
    role: null,
    presence: [],
    control: initialControl,
    revoked: false,
  };
}
