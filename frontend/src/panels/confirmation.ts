// A confirmation card: a step the agent wants to run that needs the user's yes (the action, its arguments,
// why it needs a yes, the page, time left, Approve / Deny), and once answered, what came of it. A hand-off (the agent
// asks a person to take over the browser) is the same card in other words, with "Take control".

import { errorText } from "../errors";
import type { Confirmation, Id, RunStatus } from "../api/types";
import { h, icon, ICONS, present, replaceChildren, setAttr, setText, type Component } from "../dom";
import { compactJson, confirmationOutcome, formatCountdown, msUntil, truncate } from "../format";
import { confirmationDisplayStatus } from "../reducer";
import { handoffCountdown, handoffOutcome, HANDOFF_TITLE, isHandoff } from "./handoff";

const ARGUMENTS_PREVIEW = 240;

export interface ConfirmationActions {
  /** Approves or denies; rejects with the API's error (409: already answered or expired). */
  answer(confirmationId: Id, approve: boolean): Promise<void>;
  /** Takes the live browser's controls (a hand-off's "Take control"). */
  takeControl?(): Promise<void>;
}

export interface ConfirmationCardData {
  confirmation: Confirmation;
  runStatus: RunStatus;
}

// One clock for every pending card on the page.
const tickers = new Set<() => void>();
let clock: number | null = null;

function onTick(fn: () => void): () => void {
  tickers.add(fn);
  clock ??= window.setInterval(() => {
    for (const tick of [...tickers]) tick();
  }, 1000);
  return () => {
    tickers.delete(fn);
    if (tickers.size === 0 && clock !== null) {
      window.clearInterval(clock);
      clock = null;
    }
  };
}

/** "example.com/checkout" (scheme and query left out) for a page URL, or the URL itself if it can't be read. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return truncate(url, 80).text;
    const path = u.pathname === "/" ? "" : u.pathname;
    return truncate(u.host + path, 80).text;
  } catch {
    return truncate(url, 80).text;
  }
}

const TITLE: Record<Confirmation["status"], string> = {
  pending: "The agent asks before this step",
  approved: "Step approved",
  denied: "Step denied",
  expired: "Not answered in time",
};

export function createConfirmationCard(
  initial: ConfirmationCardData,
  actions: ConfirmationActions | undefined,
): Component<ConfirmationCardData> {
  const title = h("span", { class: "confirm-title" });
  const action = h("code", { class: "confirm-action", "data-testid": "confirm-action" });
  const args = h("code", { class: "confirm-args", "data-testid": "confirm-arguments" });
  const call = h("div", { class: "confirm-call" }, action, args);
  const reason = h("p", { class: "confirm-reason", "data-testid": "confirm-reason" });
  const link = h("a", { target: "_blank", rel: "noopener noreferrer" });
  const url = h("div", { class: "confirm-url" }, h("span", { class: "confirm-url-label" }, "On "), link);
  const countdown = h("span", { class: "confirm-countdown", "data-testid": "confirm-countdown" });
  const denyText = h("span", null, "Deny");
  const deny = h(
    "button",
    { class: "btn btn-secondary", type: "button", "data-testid": "confirm-deny" },
    icon(ICONS.close, 14),
    denyText,
  );
  const approveText = h("span", null, "Approve");
  const approve = h(
    "button",
    { class: "btn btn-primary", type: "button", "data-testid": "confirm-approve" },
    icon(ICONS.check, 14),
    approveText,
  );
  const take = h(
    "button",
    { class: "btn btn-primary", type: "button", "data-testid": "handoff-take-control" },
    icon(ICONS.cursor, 14),
    h("span", null, "Take control"),
  );
  take.addEventListener("click", () => void actions?.takeControl?.());
  const buttons = h("div", { class: "confirm-buttons" }, deny, approve);
  const foot = h("div", { class: "confirm-foot" }, countdown, buttons);
  const outcome = h("div", { class: "confirm-outcome", "data-testid": "confirm-outcome" });
  const error = h("div", { class: "confirm-error", "data-testid": "confirm-error", role: "alert" });
  // The buttons, the outcome and an error are in the card only while they apply (one pending card has the
  // page's only confirm-approve, whatever answered cards are around).
  const el = h(
    "div",
    { class: "confirm-card", "data-testid": "confirmation", role: "group" },
    h("div", { class: "confirm-head" }, icon(ICONS.shield, 16), title),
    call,
    reason,
    url,
  );

  let current = initial;
  let busy = false;
  let stopTicking: (() => void) | null = null;

  const renderCountdown = (): void => {
    const left = msUntil(current.confirmation.expires_at);
    el.classList.toggle("lapsed", left <= 0);
    if (isHandoff(current.confirmation)) {
      setText(countdown, handoffCountdown(left > 0 ? formatCountdown(left) : null));
      return;
    }
    setText(
      countdown,
      left > 0
        ? `Answer within ${formatCountdown(left)} · no answer counts as no`
        : "Time is up · no answer counts as no",
    );
  };

  const send = async (yes: boolean): Promise<void> => {
    if (busy || !actions) return;
    busy = true;
    approve.disabled = deny.disabled = true;
    (yes ? approve : deny).classList.add("busy");
    error.remove();
    try {
      await actions.answer(current.confirmation.id, yes);
    } catch (err) {
      const text = errorText(err);
      replaceChildren(error, icon(ICONS.alert, 14), h("span", null, text));
      el.appendChild(error);
    } finally {
      busy = false;
      approve.classList.remove("busy");
      deny.classList.remove("busy");
      update(current);
    }
  };
  approve.addEventListener("click", () => void send(true));
  deny.addEventListener("click", () => void send(false));

  const update = (data: ConfirmationCardData): void => {
    current = data;
    const c = data.confirmation;
    const status = confirmationDisplayStatus(c, data.runStatus);
    const pending = status === "pending";
    const handoff = isHandoff(c);
    const heading = handoff ? HANDOFF_TITLE[status] : TITLE[status];
    el.className = `confirm-card confirm-${status}${handoff ? " handoff-card" : ""}`;
    setAttr(el, "data-status", status);
    setAttr(el, "data-confirmation-id", String(c.id));
    setAttr(el, "data-testid", handoff ? "handoff" : "confirmation");
    setAttr(el, "aria-label", handoff ? heading : `${heading}: ${c.action}`);
    setText(title, heading);
    setText(approveText, handoff ? "Done" : "Approve");
    setText(denyText, handoff ? "Can't help" : "Deny");
    present(buttons, take, handoff && pending && !!actions?.takeControl, deny);
    setText(action, c.action);
    const argsText = compactJson(c.arguments);
    setText(args, truncate(argsText, ARGUMENTS_PREVIEW).text);
    setAttr(args, "title", argsText || null);
    args.hidden = !argsText;
    call.hidden = handoff; // the reason says it all
    setText(reason, c.reason);
    reason.hidden = !c.reason;
    url.hidden = !c.url;
    if (c.url) {
      setAttr(link, "href", c.url);
      setAttr(link, "title", c.url);
      setText(link, shortUrl(c.url));
    }
    present(el, foot, pending, outcome.parentNode === el ? outcome : error.parentNode === el ? error : null);
    approve.disabled = deny.disabled = busy || !pending || !actions;
    present(el, outcome, !pending, error.parentNode === el ? error : null);
    if (!pending) {
      const when = c.decided_at ? new Date(c.decided_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
      const said = handoff ? handoffOutcome(status, c.decided_by) : confirmationOutcome(status, c.decided_by);
      setText(outcome, said + (when ? ` · ${when}` : ""));
    }
    if (pending) {
      renderCountdown();
      stopTicking ??= onTick(renderCountdown);
    } else if (stopTicking) {
      stopTicking();
      stopTicking = null;
    }
  };
  update(initial);
  return {
    el,
    update,
    destroy: () => {
      stopTicking?.();
      stopTicking = null;
    },
  };
}
