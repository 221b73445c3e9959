// Tool Inspector (SPEC §6), next to the live view: the active tab's WebMCP tools — the page's own and those
// SKILLs add — with their source, description and annotations (a SKILL tool the page shadows is greyed);
// the SKILLs matching the page with their health (a failed check shows its error) and this conversation's
// switch for each. Selecting a tool shows its input schema and a form generated from it; "Call" runs it by
// hand (POST .../tools/call/) and shows the result of the run's one step and the page after it.

import { errorText } from "../errors";
import type { Id, Run, WebTool } from "../api/types";
import { h, icon, ICONS, KeyedList, present, replaceChildren, setAttr, setText } from "../dom";
import { hostOf } from "../format";
import type { ConversationView, ToolsView } from "../state";
import { callOutcome, skillRows, sourceLabel, type CallOutcome, type SkillRow } from "./inspector/model";
import { badges, createSkillRow, createToolRow, type ToolRow } from "./inspector/rows";
import { openLightbox } from "./lightbox";
import { ToolForm } from "./toolform";

export interface InspectorOptions {
  /** Calls a tool of the active tab by hand; resolves the run (202) or rejects with the API's error. */
  call: (name: string, args: Record<string, unknown>) => Promise<Run>;
  /** Asks the server for the tools again. */
  refresh: () => void;
  setSkill: (skillId: Id, enabled: boolean) => Promise<void>;
}

interface LastCall {
  name: string;
  runId: Id | null;
  /** The API refused the call (409 while a run is active, 400 bad arguments …). */
  error: string | null;
}

export class ToolInspector {
  readonly el: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly message: HTMLElement;
  private readonly toolsEl: HTMLElement;
  private readonly tools: KeyedList<ToolRow>;
  private readonly detail: HTMLElement;
  private readonly detailTitle: HTMLElement;
  private readonly detailMeta: HTMLElement;
  private readonly detailDescription: HTMLElement;
  private readonly detailNote: HTMLElement;
  private readonly schema: HTMLElement;
  private readonly form: ToolForm;
  private readonly result: HTMLElement;
  private readonly resultText: HTMLElement;
  private readonly resultHead: HTMLElement;
  private readonly screenshot: HTMLImageElement;
  private readonly skillsSection: HTMLElement;
  private readonly skillsEl: HTMLElement;
  private readonly skills: KeyedList<SkillRow>;
  private view: ConversationView | null = null;
  private selected: string | null = null;
  /** The schema the form was drawn for: a tools.updated with the same schema keeps what was typed. */
  private formSchema: string | null = null;
  private lastCall: LastCall | null = null;
  private calling = false;
  /** The reader may call tools by hand (owner, controller). */
  private canCall = true;
  private readonly readOnlyNote: HTMLElement;

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

    this.detailTitle = h("h3", { class: "inspector-detail-title" });
    this.detailMeta = h("div", { class: "inspector-detail-meta" });
    this.detailDescription = h("p", { class: "inspector-detail-description" });
    this.detailNote = h("div", { class: "inspector-detail-note", role: "note" });
    this.schema = h("pre", { class: "inspector-schema", "data-testid": "inspector-schema" });
    this.form = new ToolForm(() => void this.call());
    this.readOnlyNote = h(
      "p",
      { class: "inspector-readonly", "data-testid": "inspector-readonly", hidden: true },
      "You are watching: only the owner and controllers can call tools.",
    );
    this.resultHead = h("div", { class: "inspector-result-head" });
    this.resultText = h("pre", { class: "inspector-result-text" });
    this.result = h(
      "div",
      { class: "inspector-result", "data-testid": "inspector-result", role: "status" },
      this.resultHead,
      this.resultText,
    );
    this.screenshot = h("img", {
      class: "inspector-screenshot step-shot",
      "data-testid": "inspector-screenshot",
      alt: "The page after the call",
      tabindex: "0",
    });
    const openShot = (): void => openLightbox(this.screenshot.src, this.screenshot.alt);
    this.screenshot.addEventListener("click", openShot);
    this.screenshot.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      openShot();
    });
    this.detail = h(
      "div",
      { class: "inspector-detail card", "data-testid": "inspector-detail" },
      h(
        "div",
        { class: "inspector-detail-head" },
        this.detailTitle,
        h(
          "button",
          {
            class: "btn btn-ghost btn-icon btn-sm",
            type: "button",
            title: "Close",
            "aria-label": "Close the tool",
            onclick: () => this.select(null),
          },
          icon(ICONS.close, 14),
        ),
      ),
      this.detailMeta,
      this.detailDescription,
      this.detailNote,
      h("details", { class: "inspector-schema-wrap" }, h("summary", null, "Input schema"), this.schema),
      this.readOnlyNote,
      this.form.el,
    );

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
    if (callTools === this.canCall) return;
    this.canCall = callTools;
    this.form.el.hidden = !callTools;
    this.readOnlyNote.hidden = callTools;
  }

  update(view: ConversationView | null): void {
    const switched = this.view?.id !== view?.id;
    const previous = switched ? null : this.view;
    this.view = view;
    if (switched) {
      this.selected = null;
      this.formSchema = null;
      this.lastCall = null;
      this.calling = false;
    }
    if (!view) {
      this.tools.clear();
      this.skills.clear();
      this.detail.remove();
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
    if (this.selected !== name || name === null) this.lastCall = null;
    this.formSchema = null;
    if (!this.view) return;
    this.renderTools(this.view);
    this.renderDetail(this.view);
    if (this.selected) this.detail.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  /** The tool the page answers to for a name: its own when it shadows a SKILL's. */
  private selectedTool(view: ConversationView): WebTool | undefined {
    const named = view.tools.tools.filter((t) => t.name === this.selected);
    return named.find((t) => !t.shadowed) ?? named[0];
  }

  private renderDetail(view: ConversationView): void {
    if (this.selected === null) {
      this.detail.remove();
      return;
    }
    // Under the selected tool's row, so its form is where the user looked.
    const row = this.toolsEl.querySelector(`[data-testid="inspector-tool"][aria-pressed="true"]`)?.parentElement;
    if (row) {
      if (this.detail.parentNode !== row) row.appendChild(this.detail);
    } else if (this.detail.parentNode !== this.el) {
      this.el.insertBefore(this.detail, this.skillsSection);
    }
    const tool = this.selectedTool(view);
    setAttr(this.detail, "data-name", this.selected);
    if (!tool) {
      setText(this.detailTitle, this.selected);
      replaceChildren(this.detailMeta);
      setText(this.detailDescription, "");
      setText(this.detailNote, "This tool is no longer on the page.");
      this.detailNote.hidden = false;
      this.form.callButton.disabled = true;
      this.renderResult(view);
      return;
    }
    setText(this.detailTitle, tool.title || tool.name);
    replaceChildren(
      this.detailMeta,
      h("code", { class: "tool-name" }, tool.name),
      h("span", { class: `chip tool-source${tool.source === "skill" ? " chip-skill" : ""}` }, sourceLabel(tool)),
      ...badges(tool),
    );
    setText(this.detailDescription, tool.description);
    this.detailDescription.hidden = !tool.description;
    const note = tool.shadowed ? "A SKILL tool the page shadows: calling this name runs the page's own tool." : "";
    setText(this.detailNote, note);
    this.detailNote.hidden = !note;
    const schemaText = tool.input_schema == null ? "" : JSON.stringify(tool.input_schema, null, 2);
    setText(this.schema, schemaText || "No input schema: the tool takes no arguments.");
    if (this.formSchema !== schemaText) {
      this.formSchema = schemaText;
      this.form.setSchema(tool.input_schema);
    }
    this.form.callButton.disabled = this.calling || this.pending(view);
    this.renderResult(view);
  }

  private pending(view: ConversationView): boolean {
    const runId = this.lastCall?.runId;
    if (runId === undefined || runId === null) return false;
    const run = view.runs.find((r) => r.id === runId);
    return callOutcome(run, view.steps[runId] ?? []).status === "running";
  }

  private renderResult(view: ConversationView): void {
    const call = this.lastCall;
    const show = !!call && call.name === this.selected;
    present(this.detail, this.result, show || this.calling);
    let screenshot: string | null = null;
    if (this.calling && !call) {
      this.setResult("running", `Calling ${this.selected}…`, "", false);
    } else if (call && show) {
      if (call.error !== null) {
        this.setResult("failed", `${call.name} could not be called`, call.error, false);
      } else if (call.runId !== null) {
        const outcome = callOutcome(view.runs.find((r) => r.id === call.runId), view.steps[call.runId] ?? []);
        const head =
          outcome.status === "running"
            ? `Calling ${call.name}…`
            : outcome.status === "failed"
              ? `${call.name} failed`
              : `${call.name} answered`;
        this.setResult(outcome.status, head, outcome.text || (outcome.status === "succeeded" ? "(no result)" : ""), outcome.json);
        screenshot = outcome.screenshot;
      }
    }
    if (screenshot) {
      if (this.screenshot.getAttribute("src") !== screenshot) this.screenshot.src = screenshot;
      if (this.screenshot.parentNode !== this.detail) this.detail.appendChild(this.screenshot);
    } else {
      this.screenshot.remove();
    }
  }

  private setResult(status: CallOutcome["status"], head: string, text: string, json: boolean): void {
    setAttr(this.result, "data-status", status);
    this.result.className = `inspector-result ${status}`;
    replaceChildren(
      this.resultHead,
      status === "running"
        ? h("span", { class: "spinner", "aria-hidden": "true" })
        : icon(status === "failed" ? ICONS.alert : ICONS.check, 14),
      h("span", null, head),
    );
    setText(this.resultText, text);
    this.resultText.hidden = !text;
    this.resultText.classList.toggle("json", json);
  }

  private async call(): Promise<void> {
    const view = this.view;
    const name = this.selected;
    if (!view || !name || this.calling || !this.canCall) return;
    const { arguments: args, errors } = this.form.read();
    if (Object.keys(errors).length) return;
    this.calling = true;
    this.lastCall = null;
    this.form.callButton.disabled = true;
    this.renderResult(view);
    let call: LastCall;
    try {
      const run = await this.options.call(name, args);
      call = { name, runId: run.id, error: null };
    } catch (err) {
      const message = errorText(err);
      call = { name, runId: null, error: message };
    }
    // A conversation switched meanwhile has its own inspector state.
    if (this.view?.id !== view.id) return;
    this.calling = false;
    this.lastCall = call;
    this.renderDetail(this.view);
  }
}
