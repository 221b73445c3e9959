// A conversation's view as the chat's timeline: user messages (with who wrote them), each run's block after the
// message that started it, replies, and replies still streaming. Pure, unit-tested.

import type { Confirmation, Id, Message, PlanStep, Run, Step } from "./api/types";
import { byCreated, hasAssistantMessage, isActiveStatus, time } from "./reducer";
import type { ConversationView } from "./state";

/**
 * The action of a run started by hand (the address bar, the tab bar), or null for an agent's turn. Such a
 * run has no user message. Runs started from this page are `known`; others (history, another window) are
 * recognised once their one step arrives: a run no message belongs to, whose only step is an action.
 */
export function manualAction(
  run: Run,
  steps: readonly Step[],
  messages: readonly Message[],
  known: Readonly<Record<Id, string>> = {},
): string | null {
  if (messages.some((m) => m.run === run.id)) return null;
  const action = known[run.id];
  if (action !== undefined) return action;
  const only = steps.length === 1 ? steps[0] : undefined;
  return only?.kind === "action" && only.action ? only.action : null;
}

const NONE: never[] = [];

export type TimelineItem =
  | {
      kind: "message";
      key: string;
      message: Message;
      /** Who wrote it: its author, else (a message from before authors were kept) the conversation's owner. */
      author: string | null;
    }
  | {
      kind: "run";
      key: string;
      run: Run;
      steps: Step[];
      manual: string | null;
      confirmations: Confirmation[];
      plan: PlanStep[];
      /** The reader owns the conversation: what the model saw and "Save as workflow" are theirs to open. */
      ownerReads: boolean;
    }
  | { kind: "streaming"; key: string; runId: Id; text: string; active: boolean };

/**
 * Orders the chat: each run's block (its steps) follows the user message that started it and comes
 * before the run's reply; a reply still streaming follows its run's block.
 */
export function buildTimeline(
  view: Pick<ConversationView, "messages" | "runs" | "steps" | "streaming"> &
    Partial<Pick<ConversationView, "manualRuns" | "confirmations" | "plans" | "conversation">>,
  ownerReads = false,
): TimelineItem[] {
  const owner = view.conversation?.owner ?? null;
  const runs = [...view.runs].sort(byCreated);
  const runById = new Map(runs.map((r) => [r.id, r]));
  const anchored = new Set<Id>();
  for (const m of view.messages) if (m.role === "user" && m.run !== null && runById.has(m.run)) anchored.add(m.run);

  const out: TimelineItem[] = [];
  const placed = new Set<Id>();
  const placeRun = (run: Run): void => {
    if (placed.has(run.id)) return;
    placed.add(run.id);
    const steps = view.steps[run.id] ?? [];
    const manual = manualAction(run, steps, view.messages, view.manualRuns);
    const confirmations = view.confirmations?.[run.id] ?? NONE;
    const plan = view.plans?.[run.id] ?? NONE;
    out.push({ kind: "run", key: `r${run.id}`, run, steps, manual, confirmations, plan, ownerReads });
    const text = view.streaming[run.id];
    if (text !== undefined && !hasAssistantMessage(view.messages, run.id)) {
      out.push({ kind: "streaming", key: `s${run.id}`, runId: run.id, text, active: isActiveStatus(run.status) });
    }
  };
  // Runs no user message points at are placed by time, after messages of the same instant.
  const loose = runs.filter((r) => !anchored.has(r.id));
  let next = 0;
  for (const message of [...view.messages].sort(byCreated)) {
    for (let run = loose[next]; run && time(run.created_at) < time(message.created_at); run = loose[++next]) placeRun(run);
    const ownRun = message.run !== null ? runById.get(message.run) : undefined;
    if (ownRun && message.role !== "user") placeRun(ownRun);
    const author = message.role === "user" ? (message.author ?? owner) : null;
    out.push({ kind: "message", key: `m${message.id}`, message, author });
    if (ownRun && message.role === "user") placeRun(ownRun);
  }
  for (const run of loose) placeRun(run);
  // Text streaming for a run we have not heard of yet still shows.
  for (const [key, text] of Object.entries(view.streaming)) {
    const runId = Number(key);
    if (!runById.has(runId) && !hasAssistantMessage(view.messages, runId)) {
      out.push({ kind: "streaming", key: `s${runId}`, runId, text, active: true });
    }
  }
  return out;
}
