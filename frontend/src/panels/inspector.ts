// Tool Inspector, next to the live view: the active tab's WebMCP tools — the page's own and those
// SKILLs add — with their source, description and annotations (a SKILL tool the page shadows is greyed);
// the SKILLs matching the page with their health (a failed check shows its error) and this conversation's
// switch for each. Selecting a tool shows its input schema and a form generated from it; "Call" runs it by
// hand (POST .../tools/call/) and shows the result of the run's one step and the page after it.

import type { Id, Run, WebTool } from "../api/types";
import { h, icon, ICONS, KeyedList, setAttr, setText } from "../dom";
import { hostOf } from "../format";
import type { ConversationView, ToolsView } from "../state";
import { ToolDetail } from "./inspector/detail";
import { skillRows, type SkillRow } from "./inspector/model";
import { createSkillRow, createToolRow, type ToolRow } from "./inspector/rows";

export interface InspectorOptions {
  /** Calls a tool of the active tab by hand; resolves the run (202) or rejects with the API's error. */
  call: (name: string, args: Record<string, unknown>) => Promise<Run>;
  /** Asks the server for the tools again. */
  refresh: () => void;
  setSkill: (skillId: Id, enabled: boolean) => Promise<void>;
}

export class ToolInspector {
  readonly el: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly message: HTMLElement;
  private readonly toolsEl: HTMLElement;
  private readonly tools: KeyedList<ToolRow>;
  private readonly detail: ToolDetail;
  private readonly skillsSection: HTMLElement;
  private readonly skillsEl: HTMLElement;
  private readonly skills: KeyedList<SkillRow>;
  private view: ConversationView | null = null;
  private selected: string | null = null;

  constructor(private readonly options: InspectorOptions) {
    this.heading = h("span", { class: "inspector-heading" });
    const refresh = h(
      "button",
      {
        class: "btn btn-ghost btn-sm",
        type: "button",
        "data-testid": "inspector-refresh",
        title: "Ask the page for its tools again",
        onclick: () => this.options.refresh(),
      },
      icon(ICONS.reload, 13),
      "Refresh",
    );
    this.message = h("div", { class: "inspector-message", "data-testid": "inspector-empty", role: "status" });
    this.toolsEl = h("div", { class: "inspector-tools", role: "list" });
    this.tools = new KeyedList(this.toolsEl, (r) => r.tool.name + (r.tool.shadowed ? ":shadowed" : ""), (r) =>
      createToolRow(r, (name) => this.select(name)),
    );

    this.detail = new ToolDetail({
      call: (name, args) => this.options.call(name, args),
      close: () => this.select(null),
      viewId: () => this.view?.id ?? null,
      redraw: () => {
        if (this.view) this.renderDetail(this.view);
      },
    });

    this.skillsEl = h("ul", { class: "inspector-skills" });
    this.skills = new KeyedList(this.skillsEl, (r) => r.name, (r) =>
      createSkillRow(r, { toggle: (skill, enabled) => this.options.setSkill(skill.id, enabled) }),
    );
    this.skillsSection = h(
      "section",
      { class: "inspector-skills-section" },
      h(
        "div",
        { class: "inspector-section-head" },
        h("span", { class: "inspector-section-label" }, "SKILLs"),
        h("span", { class: "inspector-section-hint" }, "Tools Hive adds to sites it knows; switch them per conversation."),
      ),
      this.skillsEl,
    );

    this.el = h(
      "section",
      { class: "inspector", "data-testid": "tool-inspector", "aria-label": "Tool Inspector" },
      h("div", { class: "inspector-head" }, icon(ICONS.wrench, 14), this.heading, h("span", { class: "step-spacer" }), refresh),
      this.message,
      this.toolsEl,
      this.skillsSection,
    );
  }

  /** Tools on the page, not counting SKILL tools the page shadows (for the tab's counter). */
  static countTools(tools: ToolsView): number {
    return tools.status === "ready" ? tools.tools.filter((t) => !t.shadowed).length : 0;
  }

  /** What the reader may do: viewers see the tools but get no Call form; only the owner switches SKILLs. */
  setPermissions({ callTools, skills }: { callTools: boolean; skills: boolean }): void {
    this.el.classList.toggle("no-skill-switch", !skills);
    this.detail.setCanCall(callTools);
  }

  update(view: ConversationView | null): void {
    const switched = this.view?.id !== view?.id;
    const previous = switched ? null : this.view;
    this.view = view;
    if (switched) {
      this.selected = null;
      this.detail.reset();
    }
    if (!view) {
      this.tools.clear();
      this.skills.clear();
      this.detail.el.remove();
      setText(this.heading, "Tools");
      this.showMessage("Open a conversation to see the tools of its browser's page.");
      this.skillsSection.hidden = true;
      return;
    }
    const toolsChanged =
      previous?.tools !== view.tools || previous.tabs !== view.tabs || previous.skills !== view.skills;
    if (toolsChanged) this.renderTools(view);
    if (toolsChanged || previous.runs !== view.runs || previous.steps !== view.steps) this.renderDetail(view);
  }

  private showMessage(text: string | null, kind = ""): void {
    this.message.hidden = !text;
    this.message.className = `inspector-message ${kind}`.trim();
    setText(this.message, text ?? "");
  }

  private renderTools(view: ConversationView): void {
    const { tools } = view;
    const tab = view.tabs.find((t) => t.id === tools.tab) ?? view.tabs.find((t) => t.active);
    setText(this.heading, tab ? `Tools of ${tab.title || hostOf(tab.url) || "this tab"}` : "Tools of the page");
    setAttr(this.el, "data-status", tools.status);
    setAttr(this.el, "data-tab-id", tools.tab);
    if (tools.status === "loading" && tools.tools.length === 0) {
      this.showMessage("Looking for tools on this page…", "loading");
    } else if (tools.status === "error") {
      this.showMessage(`Could not read the page's tools: ${tools.error ?? "unknown error"}`, "error");
    } else if (tools.tools.length === 0) {
      this.showMessage(
        "No tools on this page. Pages can offer the agent WebMCP tools, and SKILLs add tools to sites Hive knows.",
      );
    } else {
      this.showMessage(null);
    }
    this.tools.update(tools.tools.map((tool) => ({ tool, selected: tool.name === this.selected && !tool.shadowed })));
    const rows = skillRows(tools.skills, view.skills ?? []);
    this.skills.update(rows);
    this.skillsSection.hidden = rows.length === 0;
  }

  private select(name: string | null): void {
    this.selected = this.selected === name ? null : name;
    this.detail.selectionChanged(this.selected !== name || name === null);
    if (!this.view) return;
    this.renderTools(this.view);
    this.renderDetail(this.view);
    if (this.selected) this.detail.el.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  /** The tool the page answers to for a name: its own when it shadows a SKILL's. */
  private selectedTool(view: ConversationView): WebTool | undefined {
    const named = view.tools.tools.filter((t) => t.name === this.selected);
    return named.find((t) => !t.shadowed) ?? named[0];
  }

  private renderDetail(view: ConversationView): void {
    const detail = this.detail.el;
    if (this.selected === null) {
      detail.remove();
      return;
    }
    // Under the selected tool's row, so its form is where the user looked.
    const row = this.toolsEl.querySelector(`[data-testid="inspector-tool"][aria-pressed="true"]`)?.parentElement;
    if (row) {
      if (detail.parentNode !== row) row.appendChild(detail);
    } else if (detail.parentNode !== this.el) {
      this.el.insertBefore(detail, this.skillsSection);
    }
    this.detail.render(view, this.selected, this.selectedTool(view));
  }
}
