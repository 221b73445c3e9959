// A step's observation as a person reads it: the fences that mark page text for the model taken away, what the
// action reported as labelled fields, the page summary as rows (address, title, counts, text …) and the element
// lists as lists. The raw text stays available beside it. Pure, unit-tested.

import { compactJson } from "./format";

export type ObservationSection =
  | { kind: "heading"; text: string }
  | { kind: "fields"; rows: [string, string][] }
  | { kind: "list"; title: string; items: string[] }
  | { kind: "text"; text: string };

export interface ObservationView {
  /** What the action reported (the JSON the observation starts with), as label and value. */
  result: [string, string][];
  sections: ObservationSection[];
}

const FENCE_OPEN = /^\s*<untrusted_page_data\b[^>]*>\s*$/;
const FENCE_CLOSE = /^\s*<\/untrusted_page_data>\s*$/;
/** A page cannot close the fence early: the agent writes `<\/untrusted_page_data` inside it. */
const ESCAPED_CLOSE = /<\\\/untrusted_page_data/g;
const ELEMENT_LINE = /^\*?\[\d+\]/;
const LIST_TITLE = /^(Interactive elements in view(?: that appeared or changed)?)(?::\s*(\d+))?:?\s*$/;
const FIELD = /^([A-Z][A-Za-z]*(?: [a-z][A-Za-z]*){0,3}):\s(.*)$/;
const VIEWPORT = /^Viewport\s+(.+)$/;
/** The report's keys that the step already says (its action) or that say nothing to a person. */
const QUIET_KEYS = new Set(["action", "ok"]);

/** The text without the fences the model reads page data in. */
export function stripFences(text: string): string {
  return text
    .split("\n")
    .filter((line) => !FENCE_OPEN.test(line) && !FENCE_CLOSE.test(line))
    .join("\n")
    .replace(ESCAPED_CLOSE, "</untrusted_page_data")
    .trim();
}

function valueText(value: unknown): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null) return "none";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return compactJson(value);
}

/** An action's report as rows: its fields, with those of its `data` object brought up beside them. */
function reportRows(report: Record<string, unknown>): [string, string][] {
  const rows: [string, string][] = [];
  for (const [key, value] of Object.entries(report)) {
    if (QUIET_KEYS.has(key)) continue;
    if (key === "data" && value && typeof value === "object" && !Array.isArray(value)) {
      rows.push(...reportRows(value as Record<string, unknown>));
    } else {
      rows.push([key.replaceAll("_", " "), valueText(value)]);
    }
  }
  return rows;
}

function parseReport(line: string): Record<string, unknown> | null {
  if (!line.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Reads an observation into its parts; text it does not recognise is kept as text, in order. */
export function readObservation(raw: string): ObservationView {
  const lines = stripFences(raw).split("\n");
  const view: ObservationView = { result: [], sections: [] };
  const first = lines.findIndex((line) => line.trim() !== "");
  const report = first >= 0 ? parseReport((lines[first] ?? "").trim()) : null;
  if (report) {
    view.result = reportRows(report);
    lines.splice(0, first + 1);
  }
  let last: ObservationSection | undefined;
  const push = (section: ObservationSection): void => {
    view.sections.push(section);
    last = section;
  };
  for (const line of lines) {
    const text = line.trimEnd();
    const list = LIST_TITLE.exec(text);
    const field = FIELD.exec(text);
    const viewport = VIEWPORT.exec(text);
    if (text.trim() === "") {
      last = undefined;
    } else if (list) {
      push({ kind: "list", title: list[2] ? `${list[1] ?? ""} (${list[2]})` : (list[1] ?? ""), items: [] });
    } else if (last?.kind === "list" && ELEMENT_LINE.test(text)) {
      last.items.push(text);
    } else if (text.endsWith(":") && !field) {
      push({ kind: "heading", text: text.slice(0, -1) });
    } else if (field || viewport) {
      const row: [string, string] = field ? [field[1] ?? "", field[2] ?? ""] : ["Viewport", viewport?.[1] ?? ""];
      if (last?.kind === "fields") last.rows.push(row);
      else push({ kind: "fields", rows: [row] });
    } else if (last?.kind === "fields" && last.rows.at(-1)?.[0] === "Text") {
      const row = last.rows.at(-1);
      if (row) row[1] += `\n${text}`; // the page's text runs on over several lines
    } else if (last?.kind === "text") {
      last.text += `\n${text}`;
    } else {
      push({ kind: "text", text });
    }
  }
  return view;
}

/** One line for the step's collapsed observation: what the action reported first, else the first thing said. */
export function observationPreview(view: ObservationView): string {
  if (view.result.length) {
    return view.result
      .slice(0, 3)
      .map(([label, value]) => (value === "yes" ? label : `${label} ${value.split("\n", 1)[0] ?? ""}`))
      .join(" · ");
  }
  for (const section of view.sections) {
    if (section.kind === "heading" || section.kind === "text") return section.text.split("\n", 1)[0] ?? "";
    if (section.kind === "fields") return section.rows.map(([label, value]) => `${label}: ${value}`)[0] ?? "";
    return section.title;
  }
  return "";
}
