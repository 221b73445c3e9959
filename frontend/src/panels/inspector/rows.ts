// The Tool Inspector's rows: a tool (its name, source and hints; click to select it) and a SKILL (its
// health on this page and this conversation's switch).

import type { ConversationSkill, SkillStatus, WebTool } from "../../api/types";
import { errorText } from "../../errors";
import { h, icon, ICONS, present, replaceChildren, setAttr, setText, type Component } from "../../dom";
import { labelFor } from "../../format";
import { annotationsOf, sourceLabel, type SkillRow } from "./model";

export interface ToolRow {
  tool: WebTool;
  selected: boolean;
}

export function badges(tool: WebTool): HTMLElement[] {
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

export function createToolRow(initial: ToolRow, select: (name: string) => void): Component<ToolRow> {
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

export interface SkillRowActions {
  toggle(skill: ConversationSkill, enabled: boolean): Promise<void>;
}

const SKILL_STATUS_LABEL: Record<SkillStatus["status"], string> = {
  ok: "healthy",
  failed: "health check failed",
  off: "off here",
};

export function createSkillRow(initial: SkillRow, actions: SkillRowActions): Component<SkillRow> {
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
      toggleError.textContent = errorText(err);
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
