// Confirmations, plans, thoughts and notices: reducing events and snapshots, and what the panels show.
import { describe, expect, it } from "vitest";
import type { Confirmation, PlanStep, Run, Step } from "./api/types";
import { confirmationOutcome, formatCountdown, formatTokenUsage, msUntil, RUN_STATUS_LABEL } from "./format";
import { shortUrl } from "./panels/confirmation";
import { dependencyLabel, planProgress, planSummary } from "./panels/plan";
import { attachConfirmations, stepStyle } from "./panels/steps/model";
import {
  applyConfirmation,
  applyServerEvent,
  confirmationDisplayStatus,
  mergeSnapshot,
  pendingConfirmations,
} from "./reducer";
import { buildTimeline } from "./timeline";
import { emptyConversationView, type ConversationView } from "./state";

const T = (s: number): string => new Date(Date.UTC(2025, 0, 1, 12, 0, s)).toISOString();

function run(id: number, status: Run["status"], extra: Partial<Run> = {}): Run {
  return {
    id,
    conversation: 1,
    status,
    error: "",
    prompt_tokens: 0,
    completion_tokens: 0,
    created_at: T(id),
    started_at: null,
    finished_at: null,
    ...extra,
  };
}

function confirmation(id: number, runId: number, status: Confirmation["status"], extra: Partial<Confirmation> = {}): Confirmation {
  return {
    id,
    run: runId,
    step: 30,
    action: "click",
    arguments: { index: 3 },
    reason: "Pay now on a checkout page",
    url: "https://shop.example/checkout",
    status,
    decided_by: status === "approved" || status === "denied" ? "alice" : null,
    created_at: T(id),
    expires_at: T(id + 60),
    decided_at: status === "pending" ? null : T(id + 5),
    ...extra,
  };
}

function step(id: number, runId: number, index: number, extra: Partial<Step> = {}): Step {
  return {
    id,
    run: runId,
    index,
    kind: "action",
    action: "click",
    arguments: {},
    observation: "",
    status: "running",
    error: "",
    started_at: null,
    duration_ms: null,
    screenshot_url: null,
    ...extra,
  };
}

const plan = (...statuses: PlanStep["status"][]): PlanStep[] =>
  statuses.map((status, i) => ({
    id: `s${i + 1}`,
    title: `Step ${i + 1}`,
    depends_on: i === 0 ? [] : [`s${i}`],
    status,
  }));

const reduce = (view: ConversationView, ...events: Parameters<typeof applyServerEvent>[1][]): ConversationView =>
  events.reduce(applyServerEvent, view);

describe("confirmations", () => {
  it("shows a requested confirmation, then its answer; a late 'pending' never undoes the answer", () => {
    let view = reduce(
      emptyConversationView(1),
      { type: "run.updated", run: run(7, "waiting") },
      { type: "confirmation.requested", confirmation: confirmation(3, 7, "pending") },
    );
    expect(pendingConfirmations(view).map((c) => c.id)).toEqual([3]);
    view = reduce(view, { type: "confirmation.updated", confirmation: confirmation(3, 7, "approved") });
    view = reduce(view, { type: "confirmation.requested", confirmation: confirmation(3, 7, "pending") });
    expect(view.confirmations[7]?.map((c) => c.status)).toEqual(["approved"]);
    expect(pendingConfirmations(view)).toEqual([]);
  });

  it("records the answer the API returned", () => {
    const view = applyConfirmation(
      reduce(emptyConversationView(1), { type: "confirmation.requested", confirmation: confirmation(3, 7, "pending") }),
      confirmation(3, 7, "denied"),
    );
    expect(view.confirmations[7]?.[0]).toMatchObject({ status: "denied", decided_by: "alice" });
  });

  it("comes back with the runs after a reload, and joins its run in the timeline", () => {
    const view = mergeSnapshot(emptyConversationView(1), [], [
      { ...run(7, "waiting"), steps: [step(30, 7, 0)], confirmations: [confirmation(3, 7, "pending")] },
    ]);
    expect(view.runs[0]).not.toHaveProperty("confirmations");
    const item = buildTimeline(view)[0];
    expect(item).toMatchObject({ kind: "run", confirmations: [{ id: 3, status: "pending" }] });
  });

  it("keeps an answer that arrived while the reload was in flight", () => {
    const live = reduce(emptyConversationView(1), { type: "confirmation.updated", confirmation: confirmation(3, 7, "approved") });
    const merged = mergeSnapshot(live, [], [{ ...run(7, "waiting"), confirmations: [confirmation(3, 7, "pending")] }]);
    expect(merged.confirmations[7]?.map((c) => c.status)).toEqual(["approved"]);
  });

  it("shows a question whose run has ended as expired", () => {
    expect(confirmationDisplayStatus(confirmation(3, 7, "pending"), "waiting")).toBe("pending");
    expect(confirmationDisplayStatus(confirmation(3, 7, "pending"), "aborted")).toBe("expired");
    expect(confirmationDisplayStatus(confirmation(3, 7, "approved"), "succeeded")).toBe("approved");
  });

  it("sits with the step it asks about, or after the steps", () => {
    const steps = [step(30, 7, 0), step(31, 7, 1, { kind: "thought", action: "" })];
    const { byStep, loose } = attachConfirmations(steps, [
      confirmation(1, 7, "approved"),
      confirmation(2, 7, "pending", { step: null }),
      confirmation(3, 7, "pending", { step: 31 }),
      confirmation(4, 7, "pending", { step: 99 }),
    ]);
    expect(byStep.get(30)?.map((c) => c.id)).toEqual([1]);
    expect(loose.map((c) => c.id)).toEqual([2, 3, 4]);
  });

  it("names the page briefly", () => {
    expect(shortUrl("https://shop.example/checkout?step=2#pay")).toBe("shop.example/checkout");
    expect(shortUrl("https://shop.example/")).toBe("shop.example");
    expect(shortUrl("about:blank")).toBe("about:blank");
    expect(shortUrl("not a url")).toBe("not a url");
  });

  it("says who answered", () => {
    expect(confirmationOutcome("approved", "alice")).toBe("Approved by alice");
    expect(confirmationOutcome("denied", null)).toBe("Denied");
    expect(confirmationOutcome("expired", null)).toMatch(/Expired/);
    expect(RUN_STATUS_LABEL.waiting).toBe("Waiting for you");
  });
});

describe("countdown", () => {
  it("formats time left as a clock, rounding up", () => {
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(-5000)).toBe("0:00");
    expect(formatCountdown(NaN)).toBe("0:00");
    expect(formatCountdown(1)).toBe("0:01");
    expect(formatCountdown(9_000)).toBe("0:09");
    expect(formatCountdown(59_001)).toBe("1:00");
    expect(formatCountdown(245_000)).toBe("4:05");
    expect(formatCountdown(3_723_000)).toBe("1:02:03");
  });

  it("measures from now to a time", () => {
    const now = Date.parse(T(0));
    expect(msUntil(T(45), now)).toBe(45_000);
    expect(msUntil(T(0), now + 1000)).toBe(-1000);
    expect(msUntil("not a time", now)).toBe(0);
  });
});

describe("plans", () => {
  it("takes every plan.updated as it comes (steps may be published again, or go back to running)", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "plan.updated", run: 7, steps: plan("pending", "pending") },
      { type: "plan.updated", run: 7, steps: plan("done", "running") },
      { type: "plan.updated", run: 7, steps: plan("done", "failed") },
    );
    expect(view.plans[7]?.map((s) => s.status)).toEqual(["done", "failed"]);
    expect(buildTimeline({ ...view, runs: [run(7, "running")] })[0]).toMatchObject({ kind: "run", plan: view.plans[7] });
  });

  it("takes a run's plan from run.updated only when it has none yet", () => {
    let view = reduce(emptyConversationView(1), { type: "run.updated", run: run(7, "running", { plan: plan("running") }) });
    expect(view.plans[7]?.[0]?.status).toBe("running");
    view = reduce(view, { type: "plan.updated", run: 7, steps: plan("done") });
    view = reduce(view, { type: "run.updated", run: run(7, "running", { plan: plan("running") }) });
    expect(view.plans[7]?.[0]?.status).toBe("done");
    expect(view.runs[0]).not.toHaveProperty("plan");
  });

  it("takes the snapshot's plan on reload, unless an event changed it while the request was in flight", () => {
    const before = reduce(emptyConversationView(1), { type: "plan.updated", run: 7, steps: plan("running", "pending") });
    const snapshot = [{ ...run(7, "running"), plan: plan("done", "running") }];
    // Nothing happened meanwhile (a reconnect): the snapshot is newer.
    expect(mergeSnapshot(before, [], snapshot, before).plans[7]?.map((s) => s.status)).toEqual(["done", "running"]);
    // An event arrived after the request went out: it is newer than the snapshot.
    const live = reduce(before, { type: "plan.updated", run: 7, steps: plan("done", "done") });
    expect(mergeSnapshot(live, [], snapshot, before).plans[7]?.map((s) => s.status)).toEqual(["done", "done"]);
    // A run without a plan never loses one.
    expect(mergeSnapshot(live, [], [run(7, "running", { plan: [] })], live).plans[7]).toHaveLength(2);
  });

  it("names dependencies by their place in the list and counts progress", () => {
    const steps: PlanStep[] = [
      { id: "search", title: "Search", depends_on: [], status: "done" },
      { id: "compare", title: "Compare", depends_on: ["search"], status: "skipped" },
      { id: "book", title: "Book", depends_on: ["search", "compare", "ghost"], status: "failed" },
    ];
    expect(dependencyLabel(steps, steps[0]!)).toBe("");
    expect(dependencyLabel(steps, steps[2]!)).toBe("after 1, 2, ghost");
    expect(planProgress(steps)).toEqual({ finished: 2, failed: 1, total: 3 });
    expect(planSummary(steps)).toBe("2 of 3 done · 1 failed");
  });
});

describe("thoughts, notices, tokens", () => {
  it("draws thoughts and notices in their own style, everything else as an action", () => {
    expect(stepStyle({ kind: "thought", action: "" })).toBe("thought");
    expect(stepStyle({ kind: "system", action: "notice" })).toBe("notice");
    expect(stepStyle({ kind: "system", action: "restore" })).toBe("action");
    expect(stepStyle({ kind: "action", action: "click" })).toBe("action");
  });

  it("shows token usage in and out", () => {
    expect(formatTokenUsage(1234, 56)).toBe("1,290 tokens (1,234 in · 56 out)");
    expect(formatTokenUsage(0, 0)).toBe("");
  });
});
