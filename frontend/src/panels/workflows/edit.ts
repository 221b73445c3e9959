// The workflow editor's state, without the DOM: a draft made from the saved workflow, the edits a person makes to
// it (each returns a new draft), and the one PATCH body that saves them (only what changed is sent).

import type {
  Workflow,
  WorkflowParameter,
  WorkflowPatch,
  WorkflowStep,
  WorkflowStepChecks,
  WorkflowStepEdit,
  WorkflowStepTarget,
} from "../../api/types";

/** The argument a person edits for each action that has one. */
const MAIN_ARGUMENT: Readonly<Record<string, string>> = {
  navigate: "url",
  open_tab: "url",
  type: "text",
  select: "value",
  press_key: "key",
};

export function mainArgument(action: string): string | null {
  return MAIN_ARGUMENT[action] ?? null;
}

export interface ParameterDraft {
  /** The name in the saved version (the key of `rename` and `defaults`). */
  readonly original: WorkflowParameter;
  name: string;
  default: string;
}

/** The effects a replay may check after a step, and the actions they make sense for. */
export type Effect = "navigated" | "value" | "gone";
export const EFFECTS: readonly { effect: Effect; label: string; actions: readonly string[] }[] = [
  { effect: "navigated", label: "must lead to another page", actions: ["click", "press_key"] },
  { effect: "value", label: "the field must hold the value", actions: ["type", "select"] },
  { effect: "gone", label: "the element must be gone", actions: ["click"] },
];

/** Actions a new step (one that aims at no element) may take, with the argument it needs. */
export const NEW_STEP_ACTIONS: readonly string[] = ["navigate", "press_key"];

export interface StepDraft {
  /** The step's position in the saved version; -1 for a step added in the editor. */
  readonly from: number;
  readonly original: WorkflowStep;
  intent: string;
  /** The main argument's value as text, or null for an action without one. */
  argument: string | null;
  /** The URL check's fnmatch pattern ("" for none). */
  urlCheck: string;
  /** The effects checked after the step. */
  effects: Record<Effect, boolean>;
}

export interface WorkflowDraft {
  readonly parameters: readonly ParameterDraft[];
  readonly steps: readonly StepDraft[];
}

export function isSecret(parameter: WorkflowParameter): boolean {
  return parameter.type === "secret";
}

export function stepTarget(step: WorkflowStep): WorkflowStepTarget | null {
  return step.target && (step.target.name || step.target.tag) ? step.target : null;
}

/** The step's main argument as text ("" when it is not set), or null for an action without one. */
export function argumentText(step: WorkflowStep): string | null {
  const key = mainArgument(step.action);
  if (key === null) return null;
  const value = step.arguments[key];
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function draftOf(workflow: Workflow): WorkflowDraft {
  return {
    parameters: workflow.parameters.map((p) => ({ original: p, name: p.name, default: p.default })),
    steps: workflow.steps.map((step, from) => ({
      from,
      original: step,
      intent: step.intent,
      argument: argumentText(step),
      urlCheck: step.checks?.url ?? "",
      effects: effectsOf(step),
    })),
  };
}

function effectsOf(step: WorkflowStep): Record<Effect, boolean> {
  const checks = step.checks ?? {};
  return { navigated: Boolean(checks.navigated), value: Boolean(checks.value), gone: Boolean(checks.gone) };
}

/** A step added at the end: `navigate` or `press_key`, aiming at no element. */
export function addStep(draft: WorkflowDraft, action: string): WorkflowDraft {
  const original: WorkflowStep = { action, arguments: {}, intent: "", url: "", target: null, checks: {}, output: null };
  const step: StepDraft = { from: -1, original, intent: "", argument: "", urlCheck: "", effects: effectsOf(original) };
  return { ...draft, steps: [...draft.steps, step] };
}

/** Swaps the step at `index` with its neighbour (`-1` up, `+1` down); at either end nothing moves. */
export function moveStep(draft: WorkflowDraft, index: number, by: -1 | 1): WorkflowDraft {
  const to = index + by;
  const moving = draft.steps[index];
  const other = draft.steps[to];
  if (!moving || !other) return draft;
  return { ...draft, steps: draft.steps.map((step, i) => (i === index ? other : i === to ? moving : step)) };
}

export function removeStep(draft: WorkflowDraft, index: number): WorkflowDraft {
  return { ...draft, steps: draft.steps.filter((_, i) => i !== index) };
}

/** What stops the draft from being saved, in words, or null. */
export function draftProblem(draft: WorkflowDraft): string | null {
  const names = draft.parameters.map((p) => p.name.trim());
  if (names.some((name) => !name)) return "Every parameter needs a name.";
  if (new Set(names).size !== names.length) return "Two parameters would have the same name.";
  if (draft.steps.length === 0) return "A workflow needs at least one step.";
  const empty = draft.steps.findIndex((step) => step.from < 0 && !step.argument?.trim());
  if (empty >= 0) return `Step ${empty + 1} needs its ${mainArgument(draft.steps[empty]?.original.action ?? "") ?? "argument"}.`;
  return null;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * The API reads edited steps with the parameters' current names and then applies `rename`: a `{{placeholder}}`
 * typed with a parameter's new name goes back to its current one (one written with the current name follows the
 * rename by itself).
 */
export function inCurrentNames(text: string, rename: Readonly<Record<string, string>>): string {
  const current = new Map(Object.entries(rename).map(([old, renamed]) => [renamed, old]));
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const old = current.get(name);
    return old === undefined ? whole : `{{${old}}}`;
  });
}

/** The edits to one step, or null when it is as saved (it is then sent as `{from}` alone). */
function stepChanges(step: StepDraft, rename: Readonly<Record<string, string>>): Omit<WorkflowStepEdit, "from"> | null {
  const original = step.original;
  const changes: Omit<WorkflowStepEdit, "from"> = {};
  if (step.intent !== original.intent) changes.intent = step.intent;
  const key = mainArgument(original.action);
  if (key !== null && step.argument !== null && step.argument !== argumentText(original)) {
    changes.arguments = { ...original.arguments, [key]: inCurrentNames(step.argument, rename) };
  }
  const pattern = step.urlCheck.trim();
  const saved = effectsOf(original);
  const effectsChanged = EFFECTS.some(({ effect }) => step.effects[effect] !== saved[effect]);
  if (pattern !== (original.checks?.url ?? "") || effectsChanged) {
    const checks: WorkflowStepChecks = {};
    if (pattern) checks.url = pattern;
    if (step.effects.navigated) checks.navigated = true;
    if (step.effects.value) checks.value = true;
    if (step.effects.gone) checks.gone = true;
    changes.checks = checks;
  }
  return Object.keys(changes).length ? changes : null;
}

/** A step added in the editor, as the API takes a new step: its action, argument, intent and checks. */
function newStep(step: StepDraft, rename: Readonly<Record<string, string>>): WorkflowStepEdit {
  const key = mainArgument(step.original.action) ?? "url";
  const edit: WorkflowStepEdit = {
    action: step.original.action,
    arguments: { [key]: inCurrentNames(step.argument ?? "", rename) },
    intent: step.intent,
  };
  const changes = stepChanges(step, rename);
  if (changes?.checks) edit.checks = changes.checks;
  return edit;
}

/**
 * The PATCH body: `rename` and `defaults` for the parameters that changed (a secret has no default), and `steps`
 * (the whole list in its new order) when a step moved, went or changed: the API makes a new version of any `steps`,
 * even an unchanged list. An unchanged draft gives `{}`.
 */
export function patchBody(draft: WorkflowDraft, savedStepCount: number): WorkflowPatch {
  const body: WorkflowPatch = {};
  const rename: Record<string, string> = {};
  const defaults: Record<string, string> = {};
  for (const parameter of draft.parameters) {
    const { original } = parameter;
    const name = parameter.name.trim();
    if (name !== original.name) rename[original.name] = name;
    if (!isSecret(original) && parameter.default !== original.default) defaults[original.name] = parameter.default;
  }
  if (Object.keys(rename).length) body.rename = rename;
  if (Object.keys(defaults).length) body.defaults = defaults;
  const edits = draft.steps.map((step) =>
    step.from < 0 ? newStep(step, rename) : { from: step.from, ...stepChanges(step, rename) },
  );
  const reordered = draft.steps.length !== savedStepCount || draft.steps.some((step, i) => step.from !== i);
  if (reordered || edits.some((edit) => Object.keys(edit).length > 1)) body.steps = edits;
  return body;
}

export function isEmptyPatch(body: WorkflowPatch): boolean {
  return Object.keys(body).length === 0;
}
