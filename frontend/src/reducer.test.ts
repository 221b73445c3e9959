import { describe, expect, it } from "vitest";
import type { Message, Run, Step } from "./api/types";
import {
  applyServerEvent,
  latestRun,
  mergeSnapshot,
  patchConversation,
} from "./reducer";
import { buildTimeline, manualAction } from "./timeline";
import { emptyConversationView, type ConversationView } from "./state";

const T = (s: number): string =>
  new Date(Date.UTC(2025, 0, 1, 12, 0, s)).toISOString();

function message(
  id: number,
  role: Message["role"],
  run: number | null,
  at: number,
  content = `m${id}`,
): Message {
  return { id, conversation: 1, role, content, run, created_at: T(at) };
}

function run(
  id: number,
  status: Run["status"],
  at: number,
  extra: Partial<Run> = {},
): Run {
  return {
    id,
    conversation: 1,
    status,
    error: "",
    prompt_tokens: 0,
    completion_tokens: 0,
    created_at: T(at),
    started_at: null,
    finished_at: null,
    ...extra,
  };
}

function step(
  id: number,
  runId: number,
  index: number,
  status: Step["status"],
): Step {
  return {
    id,
    run: runId,
    index,
    kind: "action",
    action: "click",
    arguments: { index: 3 },
    observation: "",
    status,
    error: "",
    started_at: null,
    duration_ms: status === "running" ? null : 120,
    screenshot_url: null,
  };
}

const reduce = (
  view: ConversationView,
  ...events: Parameters<typeof applyServerEvent>[1][]
): ConversationView => events.reduce(applyServerEvent, view);

describe("streaming reply", () => {
  it("appends deltas to a pending reply for the run, then the stored message replaces it", () => {
    let view = reduce(
      emptyConversationView(1),
      { type: "run.updated", run: run(7, "running", 1) },
      { type: "assistant.delta", run: 7, delta: "The cheapest " },
      { type: "assistant.delta", run: 7, delta: "flight is €89." },
    );
    expect(view.streaming[7]).toBe("The cheapest flight is €89.");
    const streamingItem = buildTimeline(view).find(
      (i) => i.kind === "streaming",
    );
    expect(streamingItem).toMatchObject({
      runId: 7,
      text: "The cheapest flight is €89.",
      active: true,
    });

    view = reduce(view, {
      type: "message.created",
      message: message(9, "assistant", 7, 5, "The cheapest flight is €89."),
    });
    expect(view.streaming[7]).toBeUndefined();
    const kinds = buildTimeline(view).map((i) => i.kind);
    expect(kinds).toEqual(["run", "message"]);
  });

  it("ignores a late delta once the reply is stored", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "message.created", message: message(9, "assistant", 7, 5) },
      { type: "assistant.delta", run: 7, delta: "late" },
    );
    expect(view.streaming).toEqual({});
  });

  it("keeps streams of different runs apart", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "assistant.delta", run: 1, delta: "a" },
      { type: "assistant.delta", run: 2, delta: "b" },
      { type: "assistant.delta", run: 1, delta: "c" },
    );
    expect(view.streaming).toEqual({ 1: "ac", 2: "b" });
  });

  it("marks a reply whose run ended without a stored message as no longer streaming", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "run.updated", run: run(7, "running", 1) },
      { type: "assistant.delta", run: 7, delta: "half a repl" },
      { type: "run.updated", run: run(7, "aborted", 1) },
    );
    expect(
      buildTimeline(view).find((i) => i.kind === "streaming"),
    ).toMatchObject({ active: false });
  });
});

describe("runs and steps", () => {
  it("never moves a run or a step backwards", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "run.updated", run: run(7, "succeeded", 1) },
      { type: "run.updated", run: run(7, "running", 1) },
      { type: "step.updated", step: step(3, 7, 0, "succeeded") },
      { type: "step.created", step: step(3, 7, 0, "running") },
    );
    expect(view.runs.map((r) => r.status)).toEqual(["succeeded"]);
    expect(view.steps[7]?.map((s) => s.status)).toEqual(["succeeded"]);
  });

  it("orders steps by index whatever order their events arrive in", () => {
    const view = reduce(
      emptyConversationView(1),
      { type: "step.created", step: step(12, 7, 1, "running") },
      { type: "step.created", step: step(11, 7, 0, "succeeded") },
      { type: "step.updated", step: step(12, 7, 1, "failed") },
    );
    expect(view.steps[7]?.map((s) => [s.index, s.status])).toEqual([
      [0, "succeeded"],
      [1, "failed"],
    ]);
  });

  it("takes a new title from conversation.updated", () => {
    const conversation = {
      id: 1,
      title: "Flights to Rome",
      created_at: T(0),
      updated_at: T(9),
      last_run_status: null,
    };
    expect(
      reduce(emptyConversationView(1), {
        type: "conversation.updated",
        conversation,
      }).conversation?.title,
    ).toBe("Flights to Rome");
  });

  it("ignores messages of another conversation", () => {
    const other = { ...message(1, "user", null, 0), conversation: 2 };
    expect(
      reduce(emptyConversationView(1), {
        type: "message.created",
        message: other,
      }).messages,
    ).toEqual([]);
  });

  it("finds the latest run by creation time", () => {
    expect(latestRun([run(2, "failed", 5), run(1, "succeeded", 1)])?.id).toBe(
      2,
    );
    expect(latestRun([])).toBeNull();
  });
});

describe("mergeSnapshot (reload and reconnect)", () => {
  it("unites the REST answer with events that arrived while it was in flight", () => {
    const live = reduce(
      emptyConversationView(1),
      { type: "run.updated", run: run(7, "succeeded", 1) },
      { type: "step.updated", step: step(31, 7, 1, "succeeded") },
      { type: "message.created", message: message(9, "assistant", 7, 5) },
    );
    const merged = mergeSnapshot(
      live,
      [message(8, "user", 7, 0)],
      [
        {
          ...run(7, "running", 1),
          steps: [step(30, 7, 0, "succeeded"), step(31, 7, 1, "running")],
        },
      ],
    );
    expect(merged.loaded).toBe(true);
    expect(merged.messages.map((m) => m.id)).toEqual([8, 9]);
    expect(merged.runs).toHaveLength(1);
    expect(merged.runs[0]?.status).toBe("succeeded");
    expect(merged.runs[0]).not.toHaveProperty("steps");
    expect(merged.steps[7]?.map((s) => [s.id, s.status])).toEqual([
      [30, "succeeded"],
      [31, "succeeded"],
    ]);
  });

  it("drops a pending reply the snapshot already has as a message", () => {
    const live = reduce(emptyConversationView(1), {
      type: "assistant.delta",
      run: 7,
      delta: "Hel",
    });
    const merged = mergeSnapshot(
      live,
      [message(9, "assistant", 7, 5, "Hello")],
      [run(7, "succeeded", 1)],
    );
    expect(merged.streaming).toEqual({});
  });
});

describe("buildTimeline", () => {
  it("puts each run's steps after the message that started it and before its reply", () => {
    const view = mergeSnapshot(
      emptyConversationView(1),
      [
        message(1, "user", 10, 0),
        message(2, "assistant", 10, 9),
        message(3, "user", 11, 20),
      ],
      [
        run(10, "succeeded", 0),
        run(11, "failed", 20, { error: "No model is configured." }),
      ],
    );
    expect(buildTimeline(view).map((i) => i.key)).toEqual([
      "m1",
      "r10",
      "m2",
      "m3",
      "r11",
    ]);
  });

  it("places runs that no message points at by time", () => {
    const view = mergeSnapshot(
      emptyConversationView(1),
      [
        message(1, "user", null, 0),
        message(2, "assistant", null, 9),
        message(3, "user", null, 20),
      ],
      [run(10, "succeeded", 0), run(11, "running", 20)],
    );
    expect(buildTimeline(view).map((i) => i.key)).toEqual([
      "m1",
      "r10",
      "m2",
      "m3",
      "r11",
    ]);
  });
});

describe("actions run by hand (address bar, tabs)", () => {
  const navigate = (id: number, runId: number): Step => ({
    ...step(id, runId, 0, "succeeded"),
    action: "navigate",
    arguments: { url: "https://example.com" },
  });

  it("labels a run with no user message and one action step by its action", () => {
    expect(manualAction(run(5, "succeeded", 3), [navigate(1, 5)], [])).toBe(
      "navigate",
    );
    // An agent's turn has its user message, whatever its steps.
    expect(
      manualAction(
        run(5, "succeeded", 3),
        [navigate(1, 5)],
        [message(1, "user", 5, 0)],
      ),
    ).toBeNull();
    // Several steps, or a thought: an agent's.
    expect(
      manualAction(
        run(5, "running", 3),
        [navigate(1, 5), step(2, 5, 1, "running")],
        [],
      ),
    ).toBeNull();
    expect(
      manualAction(
        run(5, "running", 3),
        [{ ...navigate(1, 5), kind: "thought" }],
        [],
      ),
    ).toBeNull();
    // No steps yet: only a run this page started is known to be one.
    expect(manualAction(run(5, "queued", 3), [], [])).toBeNull();
    expect(manualAction(run(5, "queued", 3), [], [], { 5: "go_back" })).toBe(
      "go_back",
    );
  });

  it("places them by time among the messages, marked as manual", () => {
    let view = mergeSnapshot(
      emptyConversationView(1),
      [message(1, "user", 10, 0), message(2, "assistant", 10, 9)],
      [
        { ...run(10, "succeeded", 0), steps: [navigate(100, 10)] },
        run(11, "succeeded", 20),
      ],
    );
    view = reduce(view, {
      type: "step.created",
      step: { ...navigate(101, 11), action: "refresh", arguments: {} },
    });
    view = { ...view, manualRuns: { 12: "go_back" } };
    view = reduce(view, { type: "run.updated", run: run(12, "queued", 30) });
    const timeline = buildTimeline(view);
    expect(timeline.map((i) => i.key)).toEqual([
      "m1",
      "r10",
      "m2",
      "r11",
      "r12",
    ]);
    expect(
      timeline.flatMap((i) => (i.kind === "run" ? [i.manual] : [])),
    ).toEqual([null, "refresh", "go_back"]);
  });
});

describe("conversation list", () => {
  it("moves a conversation to the top when it gets new activity", () => {
    const conversations = [
      {
        id: 1,
        title: "a",
        created_at: T(0),
        updated_at: T(30),
        last_run_status: null,
      },
      {
        id: 2,
        title: "b",
        created_at: T(0),
        updated_at: T(10),
        last_run_status: "succeeded" as const,
      },
    ];
    const next = patchConversation(conversations, 2, {
      updated_at: T(40),
      last_run_status: "queued",
    });
    expect(next.map((c) => [c.id, c.last_run_status])).toEqual([
      [2, "queued"],
      [1, null],
    ]);
  });
});

describe("the browser pool's notices", () => {
  it("shows why a tab was closed in the conversation's notice", () => {
    const text =
      "A tab was closed: this session may have 20 tabs open at once.";
    const next = applyServerEvent(emptyConversationView(1), {
      type: "session.notice",
      kind: "tabs",
      text,
      tab_id: "t2",
    });
    expect(next.notice).toBe(text);
  });
});
