// Small pure formatting helpers shared by the panels.

import type { RunStatus, StepStatus } from "./api/types";

export const RUN_STATUS_LABEL: Record<RunStatus, string> = {
  queued: "Queued",
  running: "Running",
  waiting: "Waiting for confirmation",
  succeeded: "Succeeded",
  failed: "Failed",
  aborted: "Stopped",
};

export const STEP_STATUS_LABEL: Record<StepStatus, string> = {
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
};

/** One-line JSON for arguments: `{"url":"https://…"}`; empty objects and null show nothing. */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return "";
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** Cuts `text` to `limit` characters; `cut` says whether anything was left out. */
export function truncate(text: string, limit: number): { text: string; cut: boolean } {
  if (text.length <= limit) return { text, cut: false };
  return { text: text.slice(0, Math.max(0, limit - 1)).trimEnd() + "…", cut: true };
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** "just now", "5 min ago", "3 h ago", "yesterday", else a short date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const seconds = Math.max(0, Math.round((now - t) / 1000));
  if (seconds < 45) return "just now";
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  if (seconds < 172_800) return "yesterday";
  return new Date(t).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

export function formatTokens(prompt: number, completion: number): string {
  const total = (prompt || 0) + (completion || 0);
  if (!total) return "";
  return `${total.toLocaleString("en-US")} tokens`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** "512 B", "12 KB", "3.4 MB" (1 KB = 1000 bytes, as the server's limits are written). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)} ${units[unit]}`;
}
