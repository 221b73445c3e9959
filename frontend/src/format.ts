// Small pure formatting helpers shared by the panels.

import type { ConfirmationStatus, PlanStepStatus, RunStatus, StepStatus } from "./api/types";

/** A status's label; a status newer than this dashboard (the server may add one) shows as itself. */
export function labelFor<K extends string>(labels: Readonly<Record<K, string>>, key: K): string {
  return (labels as Partial<Record<string, string>>)[key] ?? key;
}

export const RUN_STATUS_LABEL: Record<RunStatus, string> = {
  queued: "Queued",
  running: "Running",
  waiting: "Waiting for you",
  succeeded: "Succeeded",
  failed: "Failed",
  aborted: "Stopped",
};

export const STEP_STATUS_LABEL: Record<StepStatus, string> = {
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
};

export const PLAN_STATUS_LABEL: Record<PlanStepStatus, string> = {
  pending: "To do",
  running: "In progress",
  done: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

/**
 * Time left to answer, as a clock: "4:05", "0:09", "1:02:03" (whole seconds, rounded up so "0:00" only
 * shows once time is really up); negative or unknown shows "0:00".
 */
export function formatCountdown(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${ss}` : `${minutes}:${ss}`;
}

/** Milliseconds from `now` until `iso` (negative once past; 0 for an unreadable time). */
export function msUntil(iso: string, now: number = Date.now()): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t - now;
}

/** What an answered (or unanswered) confirmation came to: "Approved by alice", "Expired — not run". */
export function confirmationOutcome(status: ConfirmationStatus, decidedBy: string | null): string {
  switch (status) {
    case "pending":
      return "Waiting for your answer";
    case "approved":
      return decidedBy ? `Approved by ${decidedBy}` : "Approved";
    case "denied":
      return decidedBy ? `Denied by ${decidedBy}` : "Denied";
    case "expired":
      return "Expired without an answer — the step was not run";
  }
}

/** One-line JSON for arguments: `{"url":"https://…"}`; empty objects and null show nothing. */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return "";
  return JSON.stringify(value); // arguments are parsed from JSON, so they always serialise
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

/** "1,290 tokens (1,234 in · 56 out)"; nothing when the run used none. */
export function formatTokenUsage(prompt: number, completion: number): string {
  const p = prompt || 0;
  const c = completion || 0;
  if (!p && !c) return "";
  const n = (x: number): string => x.toLocaleString("en-US");
  return `${n(p + c)} tokens (${n(p)} in · ${n(c)} out)`;
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
