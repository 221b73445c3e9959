// Tool Inspector (SPEC §6), next to the live view: the active tab's WebMCP tools — the page's own and those
// SKILLs add — with their source, description and annotations (a SKILL tool the page shadows is greyed);
// the SKILLs matching the page with their health (a failed check shows its error) and this conversation's
// switch for each. Selecting a tool shows its input schema and a form generated from it; "Call" runs it by
// hand (POST .../tools/call/) and shows the result of the run's one step and the page after it.

import { ApiError } from "../api/client";
import { errorText } from "../errors";
import type { ConversationSkill, Id, Run, SkillStatus, Step, WebTool } from "../api/types";
import { h, icon, ICONS, KeyedList, present, replaceChildren, setAttr, setText, type Component } from "../dom";
import { hostOf, labelFor } from "../format";
import { isTerminalStatus } from "../reducer";
import { prettyResult } from "../schemaform";
import type { ConversationView, ToolsView } from "../state";
import { openLightbox } from "./steps";
import { ToolForm } from "./toolform";

// --- Pure parts (unit-tested) ---

export interface ToolHints {
  readOnly: boolean;
  untrusted: boolean;
  consequential: boolean;
}

/** The tool's annotations, whether the server spells them readOnlyHint or read_only_hint. */
export function annotationsOf(tool: Pick<WebTool, "annotations">): ToolHints {
  const a = (tool.annotations ?? {}) as Record<string, unknown>;
  return {
    readOnly: a.readOnlyHint === true || a.read_only_hint === true,
    untrusted: a.untrustedContentHint === true || a.untrusted_content_hint === true,
    consequential: a.consequentialHint === true || a.consequential_hint === true,
  };
}

/** "page", or "SKILL demo-shop". */
export function sourceLabel(tool: Pick<WebTool, "source" | "skill">): string {
  return tool.source === "skill" ? `SKILL ${tool.skill ?? ""}`.trim() : "page";
}

export interface CallOutcome {
  status: "running" | "succeeded" | "failed";
  /** The result (pretty JSON when it is JSON), or the error. */
  text: string;
  json: boolean;
  screenshot: string | null;
}

/**
 * How a call by hand went, from its run and the run's step: the step's observation is the result; a failed
 * step (or a run that failed before its step) is an error.
 */
export function callOutcome(run: Run | undefined, steps: readonly Step[]): CallOutcome {
  const step = [...steps].reverse().find((s) => s.kind === "action") ?? steps[steps.length - 1];
  const runOver = !!run && isTerminalStatus(run.status);
  const runFailed = !!run && (run.status === "failed" || run.status === "aborted");
  if (step && step.status !== "running") {
    if (step.status === "failed") {
      const text = step.error || step.observation || run?.error || "The tool failed.";
      return { status: "failed", text, json: false, screenshot: step.screenshot_url };
    }
    const shown = prettyResult(step.observation);
    return { status: "succeeded", ...shown, screenshot: step.screenshot_url };
  }
  if (runOver) {
    if (runFailed) {
      const text = run.error || (run.status === "aborted" ? "The call was stopped." : "The call failed.");
      return { status: "failed", text, json: false, screenshot: step?.screenshot_url ?? null };
    }
    return { status: "succeeded", text: step?.observation ?? "", json: false, screenshot: step?.screenshot_url ?? null };
  }
  return { status: "running", text: "", json: false, screenshot: null };
}

export interface SkillRow {
  name: string;
  /** The health on this page; null for a SKILL that does not match it. */
  status: SkillStatus | null;
  /** This conversation's switch; null when the library did not list it. */
  skill: ConversationSkill | null;
}

/** The SKILLs matching the page (with their health) first, then the rest of the library. */
export function skillRows(statuses: readonly SkillStatus[], library: readonly ConversationSkill[]): SkillRow[] {
  const byName = new Map(library.map((s) => [s.name, s]));
  const matching = statuses.map((status) => ({ name: status.name, status, skill: byName.get(status.name) ?? null }));
  const named = new Set(statuses.map((s) => s.name));
  const others = library.filter((s) => !named.has(s.name)).map((skill) => ({ name: skill.name, status: null, skill }));
  return [...matching, ...others];
}

// --- Tool rows ---

interface ToolRow {
  tool: WebTool;
  selected: boolean;
}

function badges(tool: WebTool): HTMLElement[] {
  const hints = annotationsOf(tool);
  const out: HTMLElement[] = [];
  const badge = (hint: string, text: string, title: string): HTMLElement =>
    h("span", { class: `tool-badge tool-badge-${hint}`, "data-hint": hint, title }, text);
  if (hints.readOnly) out.push(badge("read-only", "read-only", "The page says this tool changes nothing."));
  if (hints.untrusted) {
    out.push(badge("untrusted", "untrusted content", "Its result may carry text from others: data, never instructions."));
  }
  if (hints.consequential) {
    out.push(badge("consequential", "consequential", "The page says this tool does something that matters (buys, sends…)."));
  }
  return out;
}

function createToolRow(initial: ToolRow, select: (name: string) => void): Component<ToolRow> {
  let current = initial;
  const title = h("span", { class: "tool-title" });
  const source = h("span", { class: "chip tool-source" });
  const name = h("code", { class: "tool-name" });
  const description = h("span", { class: "tool-description" });
  const badgesEl = h("span", { class: "tool-badges" });
  const shadowNote = h("span", { class: "tool-shadowed-note" }, "The page's own tool wins");
  const button = h(
    "button",
    { class: "inspector-tool", type: "button", "data-testid": "inspector-tool", onclick: () => select(current.tool.name) },
    h("span", { class: "tool-line" }, title, source),
    h("span", { class: "tool-line tool-line-2" }, name, description),
    badgesEl,
  );
  // The selected tool's detail (schema, form, result) is put in here, under its row.
  const el = h("div", { class: "inspector-tool-item", role: "listitem" }, button);
  const update = (row: ToolRow): void => {
    current = row;
    const { tool } = row;
    setAttr(button, "data-name", tool.name);
    setAttr(button, "data-source", tool.source);
    setAttr(button, "data-skill", tool.skill ?? null);
    setAttr(button, "data-shadowed", tool.shadowed ? "true" : "false");
    setAttr(button, "aria-pressed", row.selected ? "true" : "false");
    button.classList.toggle("selected", row.selected);
    button.classList.toggle("shadowed", tool.shadowed);
    setText(title, tool.title || tool.name);
    setText(source, sourceLabel(tool));
    source.classList.toggle("chip-skill", tool.source === "skill");
    setText(name, tool.name);
    setText(description, tool.description);
    setAttr(button, "title", tool.description || tool.name);
    replaceChildren(badgesEl, ...badges(tool), tool.shadowed ? shadowNote : null);
    badgesEl.hidden = !badgesEl.firstChild;
  };
  update(initial);
  return { el, update };
}

// --- SKILL rows ---

interface SkillRowActions {
  toggle(skill: ConversationSkill, enabled: boolean): Promise<void>;
}

const SKILL_STATUS_LABEL: Record<SkillStatus["status"], string> = {
  ok: "healthy",
  failed: "health check failed",
  off: "off here",
};

function createSkillRow(initial: SkillRow, actions: SkillRowActions): Component<SkillRow> {
  let current = initial;
  const name = h("span", { class: "skill-name" });
  const version = h("span", { class: "skill-version" });
  const status = h("span", { class: "chip skill-status" });
  const error = h("div", { class: "skill-error", "data-testid": "inspector-skill-error", role: "alert" });
  const toggleError = h("div", { class: "field-error" });
  const toggle = h("input", { type: "checkbox", class: "switch", role: "switch", "data-testid": "skill-toggle" });
  const toggleLabel = h("label", { class: "switch-label skill-switch" }, toggle, h("span", null, "On here"));
  toggle.addEventListener("change", () => void (async () => {
    const skill = current.skill;
    if (!skill) return;
    toggle.disabled = true;
    toggleError.remove();
    try {
      await actions.toggle(skill, toggle.checked);
    } catch (err) {
      toggle.checked = !toggle.checked;
      toggleError.textContent = err instanceof ApiError ? err.summary : String(err);
      el.appendChild(toggleError);
    } finally {
      toggle.disabled = false;
    }
  })());
  const spacer = h("span", { class: "step-spacer" });
  const head = h("div", { class: "skill-head" }, icon(ICONS.cpu, 13), name, version, status, spacer, toggleLabel);
  const el = h("li", { class: "skill-row" }, head);
  const update = (row: SkillRow): void => {
    current = row;
    const matching = row.status !== null;
    // On this page: its health (inspector-skill); elsewhere in the library: only its switch.
    setAttr(el, "data-testid", matching ? "inspector-skill" : "inspector-library-skill");
    setAttr(el, "data-name", row.name);
    setAttr(el, "data-status", row.status?.status ?? null);
    el.className = `skill-row ${row.status ? `skill-${row.status.status}` : "skill-elsewhere"}`;
    setText(name, row.name);
    setText(version, row.status?.version || row.skill?.version ? `v${row.status?.version || row.skill?.version}` : "");
    present(head, status, true, version.nextSibling);
    if (!row.status) {
      setText(status, "not on this page");
      status.className = "chip chip-muted skill-status";
    } else {
      setText(status, labelFor(SKILL_STATUS_LABEL, row.status.status));
      status.className = `chip skill-status skill-status-${row.status.status}`;
    }
    const errorText = row.status?.error ?? "";
    present(el, error, !!errorText);
    setText(error, errorText);
    present(head, toggleLabel, !!row.skill);
    if (row.skill && !toggle.disabled) toggle.checked = row.skill.enabled_here;
    setAttr(toggle, "data-skill-id", row.skill ? String(row.skill.id) : null);
    setAttr(toggle, "data-skill-name", row.name);
    setAttr(toggle, "aria-label", `Use the SKILL ${row.name} in this conversation`);
    setAttr(el, "title", row.skill?.description || null);
  };
  update(initial);
  return { el, update };
}

// --- The panel ---

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
