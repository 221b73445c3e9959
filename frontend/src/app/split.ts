// The split between the chat and the live browser, the pure parts: how wide the browser may be, and where each
// user's choice is kept (localStorage, one key per user, so people sharing a browser keep their own).

/** The chat never gets narrower than this, nor the browser: both stay usable whatever was dragged. */
export const MIN_CHAT_PX = 360;
export const MIN_LIVE_PX = 320;
/** An arrow key on the split handle moves it this far. */
export const SPLIT_STEP_PX = 32;

export function liveShareKey(user: string): string {
  return `hive.liveShare.${user}`;
}

/** The browser's width for a share (0–1) of the `area` the chat and the browser divide, kept within the minimums. */
export function clampLiveWidth(share: number, area: number): number {
  const wanted = Math.round(share * area);
  const most = Math.max(MIN_LIVE_PX, area - MIN_CHAT_PX);
  return Math.min(Math.max(wanted, MIN_LIVE_PX), most);
}

/**
 * The browser's grid column for a share: that share of what the sidebar leaves (`--sidebar-w`, per screen size),
 * kept within the minimums by CSS, so it needs no measuring and follows the window.
 */
export function liveColumn(share: number): string {
  const area = "(100% - var(--sidebar-w))";
  return `clamp(${MIN_LIVE_PX}px, calc(${area} * ${share.toFixed(4)}), calc(${area} - ${MIN_CHAT_PX}px))`;
}

/** The share stored for a user; null when none (or unreadable): the layout's default then. */
export function readShare(storage: Pick<Storage, "getItem"> | null, key: string): number | null {
  try {
    const stored = storage?.getItem(key);
    const share = stored ? Number(stored) : NaN;
    return Number.isFinite(share) && share > 0 && share < 1 ? share : null;
  } catch {
    return null;
  }
}
