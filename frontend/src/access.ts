// Sharing a conversation, the pure parts: what each role may do in the dashboard, who is watching
// (presence), who holds the live browser's controls and what the take-control switch shows, and what the
// share dialog says about shares and links. No DOM: unit-tested. The server decides access
// (webapp.sharing.selectors); this only keeps the page from offering what the server would refuse.

import type { Conversation, PresenceViewer, Role, Share, ShareRole } from "./api/types";

export const ROLE_LABEL: Record<Role, string> = { owner: "Owner", controller: "Controller", viewer: "Viewer" };

export const ROLE_DESCRIPTION: Record<ShareRole, string> = {
  viewer: "Watches the live view, the chat and the steps",
  controller: "Can also send messages, answer confirmations and take over the browser",
};

const RANK: Record<Role, number> = { viewer: 1, controller: 2, owner: 3 };

export function isRole(value: unknown): value is Role {
  return value === "owner" || value === "controller" || value === "viewer";
}

/** What the dashboard offers a person with a role (docs/architecture.md, the access table). */
export interface Permissions {
  /** Send messages: the composer. */
  send: boolean;
  /** Stop a run. */
  abort: boolean;
  /** Approve or deny a step the agent asks about. */
  confirm: boolean;
  /** Take the live browser's controls and hand them back. */
  control: boolean;
  /** Take the controls from whoever holds them (everyone else waits until they are free). */
  takeOver: boolean;
  /** The address bar, back / forward / reload, switching, opening and closing tabs. */
  navigate: boolean;
  /** Call the page's tools by hand (Tool Inspector). */
  callTools: boolean;
  /** Read a tab into the context, share it with the next message, take it out. */
  shareTabs: boolean;
  /** Upload files for the agent. */
  upload: boolean;
  /** The conversation's settings (model, reasoning, confirmations), renaming and deleting it. */
  settings: boolean;
  /** Turn SKILLs on or off in the conversation. */
  skills: boolean;
  /** Share the conversation and make links. */
  share: boolean;
}

/**
 * The permissions of a role. An unknown role (still loading, or no access) may only read: a page that
 * does not know yet offers nothing it might have to take back.
 */
export function permissionsFor(role: Role | null | undefined): Permissions {
  const rank = role && isRole(role) ? RANK[role] : 0;
  const controller = rank >= RANK.controller;
  const owner = rank >= RANK.owner;
  return {
    send: controller,
    abort: controller,
    confirm: controller,
    control: controller,
    takeOver: owner,
    navigate: controller,
    callTools: controller,
    shareTabs: controller,
    upload: owner,
    settings: owner,
    skills: owner,
    share: owner,
  };
}

/** Whether two permission sets say the same (to skip needless re-rendering). */
export function samePermissions(a: Permissions, b: Permissions): boolean {
  return (Object.keys(a) as (keyof Permissions)[]).every((key) => a[key] === b[key]);
}

/** The reader's role in an open conversation: what the websocket said last, else what the API said. */
export function roleOf(view: { role: Role | null; conversation: Pick<Conversation, "role"> | null }): Role | null {
  if (view.role) return view.role;
  const fromApi = view.conversation?.role;
  return isRole(fromApi) ? fromApi : null;
}

/** "shared by ada" for a conversation someone else shared with the reader; "" for the reader's own. */
export function sharedByLabel(conversation: Pick<Conversation, "shared" | "owner" | "role">): string {
  const shared = conversation.shared ?? (conversation.role !== undefined && conversation.role !== "owner");
  if (!shared) return "";
  return conversation.owner ? `shared by ${conversation.owner}` : "shared with you";
}

// --- Presence: who is watching ---

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * The `presence` event's list, made safe to show: once per person (the earliest connection wins, as the
 * server does), earliest first, a role the page does not know read as viewer, entries without a name left out.
 */
export function normalizePresence(viewers: unknown): PresenceViewer[] {
  if (!Array.isArray(viewers)) return [];
  const people = new Map<string, PresenceViewer>();
  for (const raw of viewers) {
    if (!raw || typeof raw !== "object") continue;
    const { username, role, since } = raw as Record<string, unknown>;
    if (typeof username !== "string" || !username) continue;
    const entry: PresenceViewer = {
      username,
      role: isRole(role) ? role : "viewer",
      since: typeof since === "string" ? since : "",
    };
    const seen = people.get(username);
    if (!seen || time(entry.since) < time(seen.since)) people.set(username, entry);
  }
  return [...people.values()].sort((a, b) => time(a.since) - time(b.since));
}

export interface PresenceEntry extends PresenceViewer {
  /** The signed-in user. */
  me: boolean;
}

/** The presence list as shown: everyone in the order they came, the signed-in user marked. */
export function presenceEntries(viewers: readonly PresenceViewer[], me: string | null): PresenceEntry[] {
  return viewers.map((viewer) => ({ ...viewer, me: me !== null && viewer.username === me }));
}

/** Whether the list is worth showing: someone besides the signed-in user, or a conversation not theirs. */
export function presenceWorthShowing(viewers: readonly PresenceViewer[], me: string | null, role: Role | null): boolean {
  if (viewers.length === 0) return false;
  return role !== "owner" || viewers.some((v) => v.username !== me);
}

// --- The browser's controls ---

/** A take or a hand-back sent and not answered yet. */
export type ControlPending = "take" | "release" | null;

export interface ControlView {
  /** Who holds the controls (a username), or null: the agent has the browser. */
  holder: string | null;
  pending: ControlPending;
}

export const initialControl: ControlView = { holder: null, pending: null };

/** Whether the signed-in user's live-view input goes to the page: they hold the controls and still may. */
export function mayInput(role: Role | null, holder: string | null, me: string | null): boolean {
  return permissionsFor(role).control && me !== null && holder === me;
}

/** What the take-control switch and the live view's foot show. */
export interface ControlUi {
  /** The switch is offered at all (owner and controllers). */
  offered: boolean;
  /** The signed-in user holds the controls: the live view sends their input. */
  mine: boolean;
  checked: boolean;
  disabled: boolean;
  /** The switch's label. */
  label: string;
  /** One line under the picture. */
  hint: string;
  holder: string | null;
}

export function controlUi(role: Role | null, control: ControlView, me: string | null): ControlUi {
  const permissions = permissionsFor(role);
  const { holder, pending } = control;
  const mine = mayInput(role, holder, me);
  const other = holder !== null && holder !== me ? holder : null;
  const base = { offered: permissions.control, mine, holder };
  if (!permissions.control) {
    const hint =
      role === "viewer"
        ? other
          ? `You are watching. ${other} has control of the browser.`
          : "You are watching. The owner and controllers can use the browser."
        : "";
    return { ...base, checked: false, disabled: true, label: "Take control", hint };
  }
  if (pending === "take") {
    return { ...base, checked: true, disabled: true, label: "Taking control…", hint: "Taking control of the browser…" };
  }
  if (pending === "release") {
    return { ...base, checked: false, disabled: true, label: "Handing back…", hint: "Handing the browser back to the agent…" };
  }
  if (mine) {
    return {
      ...base,
      checked: true,
      disabled: false,
      label: "You have control",
      hint: "You have control: clicks, drags, scrolling and typing go to the page. The agent waits until you hand back.",
    };
  }
  if (other) {
    return permissions.takeOver
      ? {
          ...base,
          checked: false,
          disabled: false,
          label: "Take over",
          hint: `${other} has control of the browser. As the owner you can take it over.`,
        }
      : {
          ...base,
          checked: false,
          disabled: true,
          label: "Take control",
          hint: `${other} has control of the browser. You can take it once they hand it back.`,
        };
  }
  return {
    ...base,
    checked: false,
    disabled: false,
    label: "Take control",
    hint: "View only. Take control to click and type in the page; the agent pauses after its current step.",
  };
}

// --- The share dialog ---

/** Link lifetimes offered in the share dialog, in minutes (the server takes 1 to 43 200). */
export const LINK_LIFETIMES: readonly { minutes: number; label: string }[] = [
  { minutes: 60, label: "1 hour" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 7 * 24 * 60, label: "7 days" },
  { minutes: 30 * 24 * 60, label: "30 days" },
];

/** The address a link's token opens: `<origin>/share/<token>`. */
export function shareLinkUrl(token: string, origin: string): string {
  return `${origin.replace(/\/+$/, "")}/share/${encodeURIComponent(token)}`;
}

/** The dialog's two lists: people (user shares, those who came through a link included) and links. */
export function splitShares(shares: readonly Share[]): { people: Share[]; links: Share[] } {
  const people = shares.filter((s) => s.kind === "user" && !!s.user);
  const links = shares.filter((s) => s.kind === "link" && !!s.token);
  return { people, links };
}

/** "expires in 3 h", "expires in 2 days", "expired"; "" without an expiry. */
export function expiryLabel(share: Pick<Share, "expires_at" | "expired">, now: number = Date.now()): string {
  if (share.expired) return "expired";
  if (!share.expires_at) return "";
  const left = Date.parse(share.expires_at) - now;
  if (Number.isNaN(left)) return "";
  if (left <= 0) return "expired";
  const minutes = Math.ceil(left / 60_000);
  if (minutes < 60) return `expires in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `expires in ${hours} h`;
  return `expires in ${Math.round(hours / 24)} days`;
}
