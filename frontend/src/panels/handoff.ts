// A hand-off card's words: the agent asked a person to take over the browser (its `ask_person` tool), a confirmation
// whose reason says what to do. The person takes control, does it and hands back (or says "Done" / "Can't help").

import type { Confirmation, ConfirmationStatus } from "../api/types";

export const HANDOFF_ACTION = "ask_person";

export function isHandoff(confirmation: Pick<Confirmation, "action">): boolean {
  return confirmation.action === HANDOFF_ACTION;
}

export const HANDOFF_TITLE: Record<ConfirmationStatus, string> = {
  pending: "The agent needs you",
  approved: "Handed back",
  denied: "Not done by a person",
  expired: "Nobody came in time",
};

/** What came of a hand-off, for its card once it is no longer pending. */
export function handoffOutcome(status: ConfirmationStatus, decidedBy: string | null): string {
  switch (status) {
    case "pending":
      return "Waiting for a person";
    case "approved":
      return decidedBy ? `${decidedBy} handed the browser back` : "The browser was handed back";
    case "denied":
      return decidedBy ? `${decidedBy} could not help` : "Nobody could help";
    case "expired":
      return "Nobody took over in time — the agent was told";
  }
}

/** The countdown line of a pending hand-off: how long the agent still waits. */
export function handoffCountdown(left: string | null): string {
  return left
    ? `The agent waits ${left} more · take control, do it, then hand back`
    : "Time is up · the agent goes on without you";
}
