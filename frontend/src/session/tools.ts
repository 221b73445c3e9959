// The active tab's WebMCP tools and the SKILL library's switches for this conversation; calling a tool
// by hand. A slower REST answer never overwrites a fresher `tools.updated`.

import { ApiError } from "../api/errors";
import type { Id, Run, Tab } from "../api/types";
import { errorText } from "../errors";
import { upsertRun } from "../reducer";
import { readyToolsView, type ConversationView } from "../state";
import type { SessionContext } from "./context";

function activeTabId(tabs: readonly Tab[]): string | null {
  return tabs.find((t) => t.active)?.id ?? null;
}

export class PageTools {
  /** Counts tools.updated events. */
  private events = 0;
  /** The tab the tools were last asked for (to ask again when another tab comes to the front). */
  private tab: string | null | undefined = undefined;

  constructor(
    private readonly ctx: SessionContext,
    private readonly onRun: (run: Run) => void,
  ) {}

  /** The websocket sent the tools. */
  noteEvent(): void {
    this.events += 1;
  }

  /** Another tab came to the front: its tools are others (tools.updated may say so too; this is cheap). */
  tabsChanged(tabs: readonly Tab[]): void {
    if (activeTabId(tabs) !== this.tab) void this.load();
  }

  /** Loads the active tab's tools; a 404 (no tools endpoint) reads as "no tools on this page". */
  async load(): Promise<void> {
    const { store, api, id } = this.ctx;
    const eventsBefore = this.events;
    this.tab = activeTabId(store.get().tabs);
    store.update((view) =>
      view.tools.status === "ready" ? view : { ...view, tools: { ...view.tools, status: "loading", error: null } },
    );
    try {
      const page = await api.getTools(id);
      if (this.ctx.isDisposed() || this.events !== eventsBefore) return;
      store.update((view) => ({ ...view, tools: readyToolsView(page) }));
    } catch (err) {
      if (this.ctx.isDisposed() || this.events !== eventsBefore) return;
      const unavailable = err instanceof ApiError && err.status === 404;
      store.update((view) => ({
        ...view,
        tools: {
          status: unavailable ? "unavailable" : "error",
          tab: null,
          tools: [],
          skills: [],
          error: unavailable ? null : errorText(err),
        },
      }));
    }
  }

  /** The SKILL library with this conversation's switches (left empty when it cannot be read). */
  async loadSkills(): Promise<void> {
    const { store, api, id } = this.ctx;
    try {
      const skills = await api.listConversationSkills(id);
      if (!this.ctx.isDisposed()) store.update((view) => ({ ...view, skills }));
    } catch {
      if (!this.ctx.isDisposed()) store.update((view) => ({ ...view, skills: view.skills ?? [] }));
    }
  }

  /** Turns a SKILL on or off in this conversation: shown at once, undone if the server refuses (rejects). */
  async setSkill(skillId: Id, enabled: boolean): Promise<void> {
    const { store, api, id } = this.ctx;
    const patch = (on: boolean) => (view: ConversationView) => ({
      ...view,
      skills: view.skills?.map((s) => (s.id === skillId ? { ...s, enabled_here: on } : s)) ?? null,
    });
    store.update(patch(enabled));
    try {
      const skill = await api.setConversationSkill(id, skillId, enabled);
      if (!this.ctx.isDisposed()) {
        store.update((view) => ({ ...view, skills: view.skills?.map((s) => (s.id === skill.id ? skill : s)) ?? [skill] }));
      }
    } catch (err) {
      if (!this.ctx.isDisposed()) store.update(patch(!enabled));
      throw err;
    }
  }

  /**
   * Calls a tool of the active tab by hand. The run shows in the timeline like an action run by hand; its one
   * step (result as observation, screenshot after) arrives over the websocket. Rejects with the API's error.
   */
  async call(name: string, args: Record<string, unknown>): Promise<Run> {
    const run = await this.ctx.api.callTool(this.ctx.id, { name, arguments: args });
    if (this.ctx.isDisposed()) return run;
    this.ctx.store.update((view) => ({
      ...view,
      runs: upsertRun(view.runs, run),
      manualRuns: { ...view.manualRuns, [run.id]: name },
      notice: null,
    }));
    this.onRun(run);
    return run;
  }
}
