// Typed client for the websockets (docs/architecture.md): /ws/conversations/<id>/ and the signed-in user's own
// /ws/me/. Dispatches server events by `type`, reconnects with exponential backoff, keeps the connection alive
// with pings.

import type { ClientMessage, Id, ServerEvent } from "./types";

export type SocketStatus = "connecting" | "open" | "reconnecting" | "closed" | "denied";

/** Close code the server uses for "no access to this conversation". */
export const CLOSE_FORBIDDEN = 4403;

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0–1: share of the delay that is randomised, so clients don't reconnect in lockstep. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000, jitter: 0.3 };

/** Delay before reconnect attempt `attempt` (0-based): base·2^attempt, capped, minus up to `jitter` of it. */
export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random = Math.random): number {
  const exp = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(exp * (1 - options.jitter * random()));
}

/** What every server message is: a JSON object with a string `type`. */
export interface TypedEvent {
  type: string;
}

/** Parses one websocket message; anything that isn't a JSON object with a string `type` is dropped. */
export function parseServerEvent(raw: unknown): TypedEvent | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string") return null;
  return value as TypedEvent;
}

export function conversationSocketUrl(conversationId: Id, loc: { protocol: string; host: string } = location): string {
  const scheme = loc.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${loc.host}/ws/conversations/${conversationId}/`;
}

export function userSocketUrl(loc: { protocol: string; host: string } = location): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws/me/`;
}

/** The part of the browser WebSocket this client uses, so tests can pass a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: Event) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface SocketOptions {
  createSocket?: (url: string) => WebSocketLike;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

type Handler<E extends TypedEvent, T extends E["type"]> = (event: Extract<E, { type: T }>) => void;
type AnyHandler<E> = (event: E) => void;
export type StatusHandler = (status: SocketStatus, info: { reconnected: boolean; retryInMs?: number }) => void;

const OPEN = 1;

/** A socket whose server sends events of type `E` (the conversation's protocol unless told otherwise). */
export class ConversationSocket<E extends TypedEvent = ServerEvent> {
  private readonly createSocket: (url: string) => WebSocketLike;
  private readonly backoff: BackoffOptions;
  private readonly pingIntervalMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly handlers = new Map<E["type"], Set<AnyHandler<E>>>();
  private readonly statusHandlers = new Set<StatusHandler>();
  private ws: WebSocketLike | null = null;
  private attempt = 0;
  private everOpened = false;
  private stopped = true;
  private retryTimer: unknown = null;
  private pingTimer: unknown = null;
  status: SocketStatus = "closed";

  constructor(
    readonly url: string,
    options: SocketOptions = {},
  ) {
    this.createSocket = options.createSocket ?? ((u) => new WebSocket(u));
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.pingIntervalMs = options.pingIntervalMs ?? 25_000;
    this.setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<T extends E["type"]>(type: T, handler: Handler<E, T>): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    const anyHandler = handler as AnyHandler<E>;
    set.add(anyHandler);
    return () => set.delete(anyHandler);
  }

  /** Status changes; `reconnected` is true on every open after the first, when state must be re-fetched. */
  onStatus(handler: StatusHandler): () => void {
    this.statusHandlers.add(handler);
    return () => this.statusHandlers.delete(handler);
  }

  connect(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Sends a command if the socket is open; returns whether it was sent (commands are never queued). */
  send(message: ClientMessage): boolean {
    if (this.ws?.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close(): void {
    this.stopped = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onclose = ws.onmessage = ws.onerror = null;
      ws.close(1000, "bye");
    }
    this.setStatus("closed", { reconnected: false });
  }

  private open(): void {
    this.setStatus(this.everOpened || this.attempt > 0 ? "reconnecting" : "connecting", { reconnected: false });
    let ws: WebSocketLike;
    try {
      ws = this.createSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.startPing();
      this.setStatus("open", { reconnected });
    };
    ws.onmessage = (ev) => {
      // The server speaks this socket's protocol: a message of a type nobody handles is dropped in dispatch.
      const event = parseServerEvent(ev.data) as E | null;
      if (event) this.dispatch(event);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearTimers();
      if (ev.code === CLOSE_FORBIDDEN) {
        this.stopped = true;
        this.setStatus("denied", { reconnected: false });
        return;
      }
      if (!this.stopped) this.scheduleReconnect();
    };
    // A failed connection also fires close, which does the reconnecting.
    ws.onerror = () => undefined;
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.backoff);
    this.attempt += 1;
    this.setStatus("reconnecting", { reconnected: false, retryInMs: delay });
    this.retryTimer = this.setTimer(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private startPing(): void {
    const tick = (): void => {
      this.send({ type: "ping" });
      this.pingTimer = this.setTimer(tick, this.pingIntervalMs);
    };
    this.pingTimer = this.setTimer(tick, this.pingIntervalMs);
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    if (this.pingTimer !== null) this.clearTimer(this.pingTimer);
    this.retryTimer = this.pingTimer = null;
  }

  private dispatch(event: E): void {
    const set = this.handlers.get(event.type);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(event);
      } catch (error) {
        console.error(`Handler for "${event.type}" failed`, error);
      }
    }
  }

  private setStatus(status: SocketStatus, info: { reconnected: boolean; retryInMs?: number }): void {
    this.status = status;
    for (const handler of [...this.statusHandlers]) handler(status, info);
  }
}
