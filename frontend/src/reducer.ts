// Pure functions that turn REST snapshots and websocket events into a ConversationView (timeline.ts
// orders a view into the chat's timeline). No DOM here: these are unit-tested.

import type {
  Confirmation,
  Conversation,
  ConversationFile,
  Id,
  Message, PlanStep, Run, RunStatus, ServerEvent, Step } from "./api/types";
import { isRole, normalizePresence } from "./access";
import { readyToolsView, type ConversationView } from "./state";

const ACTIVE: ReadonlySet<RunStatus> = new Set(["queued", "running", "waiting"]);

export function isActiveStatus(status: RunStatus | null | undefined): boolean {
  return !!status && ACTIVE.has(status);
}

export function isTerminalStatus(status: RunStatus | null | undefined): boolean {
  return !!status && !ACTIVE.has(status);
}

export function time(iso: string | null | undefined): number {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

export const byCreated = <T extends { id: Id; created_at: string }>(a: T, b: T): number =>
  time(a.created_at) - time(b.created_at) || a.id - b.id;

// How far along a record is; a later event never moves a run or a step backwards.
const runRank = (r: Run): number => (r.status === "queued" ? 0 : isActiveStatus(r.status) ? 1 : 2);
const stepRank = (s: Step): number => (s.status === "running" ? 0 : 1);
// A confirmation is answered (or expires) once and stays so.
const confirmationRank = (c: Confirmation): number => (c.status === "pending" ? 0 : 1);

/** The run alone: its steps, confirmations and plan are kept apart in the view (by run id). */
function withoutSteps(run: Run): Run {
  if (!("steps" in run) && !("confirmations" in run) && !("plan" in run)) return run;
  const { steps: _steps, confirmations: _confirmations, plan: _plan, ...rest } = run;
  return rest;
}

/** Keeps `current` only when `incoming` would move it backwards; otherwise the incoming record wins. */
function pick<T>(current: T | undefined, incoming: T, rank: (t: T) => number): T {
  return current !== undefined && rank(current) > rank(incoming) ? current : incoming;
}

function upsert<T extends { id: Id }>(list: T[], item: T, rank: (t: T) => number, order: (a: T, b: T) => number): T[] {
  const index = list.findIndex((x) => x.id === item.id);
  if (index < 0) return [...list, item].sort(order);
  const chosen = pick(list[index], item, rank);
  if (chosen === list[index]) return list;
  const next = list.slice();
  next[index] = chosen;
  return next.sort(order);
}

const byIndex = (a: Step, b: Step): number => a.index - b.index || a.id - b.id;

export function upsertMessage(messages: Message[], message: Message): Message[] {
  return upsert(messages, message, () => 0, byCreated);
}

export function upsertRun(runs: Run[], run: Run): Run[] {
  return upsert(runs, withoutSteps(run), runRank, byCreated);
}

export function upsertStep(steps: Step[], step: Step): Step[] {
  return upsert(steps, step, stepRank, byIndex);
}

export function upsertConfirmation(confirmations: Confirmation[], confirmation: Confirmation): Confirmation[] {
  return upsert(confirmations, confirmation, confirmationRank, byCreated);
}

function withConfirmation(view: ConversationView, confirmation: Confirmation): ConversationView {
  const current = view.confirmations[confirmation.run] ?? [];
  const next = upsertConfirmation(current, confirmation);
  if (next === current) return view;
  return { ...view, confirmations: { ...view.confirmations, [confirmation.run]: next } };
}

/** Records a confirmation the API answered with (after Approve / Deny); never moves one back to pending. */
export function applyConfirmation(view: ConversationView, confirmation: Confirmation): ConversationView {
  return withConfirmation(view, confirmation);
}

export function hasAssistantMessage(messages: Message[], runId: Id): boolean {
  return messages.some((m) => m.role === "assistant" && m.run === runId);
}

function dropStreaming(streaming: Record<Id, string>, runId: Id): Record<Id, string> {
  return withoutKey(streaming, String(runId));
}

export function withoutKey<V>(record: Record<string, V>, key: string): Record<string, V> {
  if (!(key in record)) return record;
  const { [key]: _dropped, ...next } = record;
  return next;
}

/** The downloads among `files` added to `downloads` (once each, by id), oldest first. */
export function withDownloads(downloads: ConversationFile[], files: readonly ConversationFile[]): ConversationFile[] {
  const known = new Set(downloads.map((f) => f.id));
  const added = files.filter((f) => f.origin === "download" && !known.has(f.id));
  return added.length ? [...downloads, ...added].sort((a, b) => a.id - b.id) : downloads;
}

/** Applies one websocket event. Frames are not state: the live view draws them directly. */
export function applyServerEvent(view: ConversationView, event: ServerEvent): ConversationView {
  switch (event.type) {
    case "hello": {
      const role = isRole(event.role) ? event.role : isRole(event.conversation.role) ? event.conversation.role : view.role;
      // An older server's hello may lack what the current one's type says it always has.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      const control = event.control ? { holder: event.control.holder ?? null, pending: null } : view.control;
      return { ...view, conversation: event.conversation, role, control };
    }
    case "conversation.updated": {
      // The server sends it as each reader sees it (a teammate's carries their role).
      const role = isRole(event.conversation.role) ? event.conversation.role : view.role;
      return { ...view, conversation: event.conversation, role };
    }
    case "presence":
      return { ...view, presence: normalizePresence(event.viewers) };
    case "control.updated":
      return { ...view, control: { holder: event.holder ?? null, pending: null } };
    case "access.updated": {
      if (!isRole(event.role)) return view;
      const conversation = view.conversation && { ...view.conversation, role: event.role, shared: event.role !== "owner" };
      return { ...view, role: event.role, conversation };
    }
    case "run.updated": {
      const runs = upsertRun(view.runs, event.run);
      // plan.updated carries every change; a run's plan is only taken here when we have none yet.
      const plan = event.run.plan;
      if (plan && plan.length > 0 && !view.plans[event.run.id]) {
        return { ...view, runs, plans: { ...view.plans, [event.run.id]: plan } };
      }
      return { ...view, runs };
    }
    case "confirmation.requested":
    case "confirmation.updated":
      return withConfirmation(view, event.confirmation);
    case "plan.updated":
      return { ...view, plans: { ...view.plans, [event.run]: event.steps } };
    case "message.created": {
      const message = event.message;
      if (message.conversation !== view.id) return view;
      const messages = upsertMessage(view.messages, message);
      const streaming =
        message.role === "assistant" && message.run !== null
          ? dropStreaming(view.streaming, message.run)
          : view.streaming;
      return { ...view, messages, streaming };
    }
    case "assistant.delta": {
      // A delta that arrives after the stored reply (e.g. replayed on reconnect) changes nothing.
      if (hasAssistantMessage(view.messages, event.run)) return view;
      const text = (view.streaming[event.run] ?? "") + event.delta;
      return { ...view, streaming: { ...view.streaming, [event.run]: text } };
    }
    case "step.created":
    case "step.updated": {
      const step = event.step;
      const steps = upsertStep(view.steps[step.run] ?? [], step);
      if (steps === view.steps[step.run]) return view;
      return { ...view, steps: { ...view.steps, [step.run]: steps } };
    }
    case "tabs.updated":
      return { ...view, tabs: event.tabs };
    case "tab.content": {
      const content = event.content;
      const tabs = view.tabs.map((tab) => (tab.id === content.tab_id ? { ...tab, context: content } : tab));
      return { ...view, tabs, readingTabs: withoutKey(view.readingTabs, content.tab_id) };
    }
    case "tab.content.removed": {
      const id = event.tab_id;
      const tabs = view.tabs.map((tab) => (tab.id === id && tab.context ? { ...tab, context: null } : tab));
      // Out of the context, a tab cannot be shared: its toggle goes off.
      const sharedTabIds = view.sharedTabIds.includes(id) ? view.sharedTabIds.filter((t) => t !== id) : view.sharedTabIds;
      return { ...view, tabs, sharedTabIds, readingTabs: withoutKey(view.readingTabs, id) };
    }
    case "tools.updated":
      return { ...view, tools: readyToolsView(event) };
    case "error":
      return { ...view, notice: event.detail };
    case "session.notice":
      return { ...view, notice: event.text };
    case "file.created":
      return { ...view, downloads: withDownloads(view.downloads, [event.file]) };
    // Not the view's state: the live view draws frames itself and reads who watches from presence.
    case "frame":
    case "pong":
    case "live.updated":
      return view;
  }
}

/**
 * Merges what the REST API returned (messages, runs with steps, confirmations and plans) into the view.
 * Events that arrived while the request was in flight are kept: records are united by id, and none moves
 * backwards. Plans have no order of their own: pass `since`, the view when the request was sent, and a
 * plan that an event changed meanwhile is kept rather than replaced by the (older) snapshot's.
 */
export function mergeSnapshot(
  view: ConversationView,
  messages: Message[],
  runs: Run[],
  since?: Pick<ConversationView, "plans">,
): ConversationView {
  let nextMessages = view.messages;
  for (const message of messages) nextMessages = upsertMessage(nextMessages, message);
  let nextRuns = view.runs;
  const steps: Record<Id, Step[]> = { ...view.steps };
  const confirmations: Record<Id, Confirmation[]> = { ...view.confirmations };
  const plans: Record<Id, PlanStep[]> = { ...view.plans };
  for (const run of runs) {
    nextRuns = upsertRun(nextRuns, run);
    let runSteps = steps[run.id] ?? [];
    for (const step of run.steps ?? []) runSteps = upsertStep(runSteps, step);
    steps[run.id] = runSteps;
    if (run.confirmations?.length) {
      let runConfirmations = confirmations[run.id] ?? [];
      for (const confirmation of run.confirmations) runConfirmations = upsertConfirmation(runConfirmations, confirmation);
      confirmations[run.id] = runConfirmations;
    }
    const changedMeanwhile = since !== undefined && view.plans[run.id] !== since.plans[run.id];
    if (run.plan?.length && !changedMeanwhile) plans[run.id] = run.plan;
  }
  let streaming = view.streaming;
  for (const key of Object.keys(streaming)) {
    const runId = Number(key);
    if (hasAssistantMessage(nextMessages, runId)) streaming = dropStreaming(streaming, runId);
  }
  return {
    ...view,
    messages: nextMessages,
    runs: nextRuns,
    steps,
    confirmations,
    plans,
    streaming,
    loaded: true,
    loadError: null,
  };
}

export function latestRun(runs: Run[]): Run | null {
  let latest: Run | null = null;
  for (const run of runs) if (!latest || byCreated(latest, run) < 0) latest = run;
  return latest;
}

/** The confirmations still waiting for an answer, oldest first. */
export function pendingConfirmations(view: Pick<ConversationView, "confirmations">): Confirmation[] {
  return Object.values(view.confirmations)
    .flat()
    .filter((c) => c.status === "pending")
    .sort(byCreated);
}

/**
 * What a confirmation card shows: the server's status, except that a question whose run has ended is
 * over (the server settles it as expired; this covers the moment before that news arrives).
 */
export function confirmationDisplayStatus(
  confirmation: Confirmation,
  runStatus: RunStatus | null | undefined,
): Confirmation["status"] {
  if (confirmation.status === "pending" && isTerminalStatus(runStatus)) return "expired";
  return confirmation.status;
}

/** Newest activity first, as GET /api/conversations/ answers. */
export function sortConversations(conversations: Conversation[]): Conversation[] {
  return [...conversations].sort((a, b) => time(b.updated_at) - time(a.updated_at) || b.id - a.id);
}

/** Updates one conversation in the list (if present) and re-sorts. */
export function patchConversation(
  conversations: Conversation[],
  id: Id,
  patch: Partial<Omit<Conversation, "id">>,
): Conversation[] {
  if (!conversations.some((c) => c.id === id)) return conversations;
  return sortConversations(conversations.map((c) => (c.id === id ? { ...c, ...patch } : c)));
}
