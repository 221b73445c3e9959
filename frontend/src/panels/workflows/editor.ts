// The owner's editor for one workflow: its parameters (rename, new default) and its steps (intent, main argument,
// the page-address check; move up or down; remove). "Save changes" sends one PATCH; a refusal is shown beside the
// button and the edits stay.

import type { ApiClient } from "../../api/client";
import type { Workflow } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import {
  EFFECTS,
  NEW_STEP_ACTIONS,
  type ParameterDraft,
  type StepDraft,
  type WorkflowDraft,
  addStep,
  draftOf,
  draftProblem,
  isEmptyPatch,
  isSecret,
  mainArgument,
  moveStep,
  patchBody,
  removeStep,
  stepTarget,
} from "./edit";

export interface EditorOptions {
  api: ApiClient;
  workflow: Workflow;
  /** The workflow as saved (a new version), or as it was when nothing changed. */
  saved: (workflow: Workflow) => void;
  cancelled: () => void;
}

const ARGUMENT_LABEL: Readonly<Record<string, string>> = { url: "Address", text: "Text", value: "Value", key: "Key" };

function textInput(
  value: string,
  label: string,
  testid: string,
  onInput: (value: string) => void,
  placeholder: string | null = null,
): HTMLInputElement {
  const input = h("input", { class: "input", value, placeholder, "aria-label": label, "data-testid": testid });
  input.addEventListener("input", () => onInput(input.value));
  return input;
}

export class WorkflowEditor {
  readonly el: HTMLFormElement;
  private draft: WorkflowDraft;
  private readonly stepsEl: HTMLOListElement;
  private readonly error: HTMLElement;
  private readonly save: HTMLButtonElement;

  constructor(private readonly options: EditorOptions) {
    this.draft = draftOf(options.workflow);
    this.stepsEl = h("ol", { class: "wf-edit-steps", "data-testid": "workflow-edit-steps" });
    this.error = h("span", { class: "form-error", role: "alert", "data-testid": "workflow-edit-error" });
    this.save = h("button", { class: "btn btn-primary", type: "submit", "data-testid": "workflow-edit-save" }, "Save changes");
    const cancel = h("button", { class: "btn btn-ghost", type: "button", "data-testid": "workflow-edit-cancel" }, "Cancel");
    cancel.addEventListener("click", () => options.cancelled());
    this.el = h(
      "form",
      { class: "workflow-editor", "data-testid": "workflow-editor", "aria-label": `Edit ${options.workflow.name}` },
      h("h3", null, "Parameters"),
      h(
        "p",
        { class: "field-hint" },
        "Steps use a parameter as {{name}}; a renamed one follows into them. A parameter no step uses any more is dropped.",
      ),
      this.parametersTable(),
      h("h3", null, "Steps"),
      this.stepsEl,
      this.addControl(),
      h("div", { class: "form-actions start" }, this.save, cancel, this.error),
    );
    this.el.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.renderSteps();
  }

  /** Adds a step at the end that aims at no element: open an address, or press a key. */
  private addControl(): HTMLElement {
    const action = h(
      "select",
      { class: "input", "aria-label": "Action of the new step", "data-testid": "workflow-edit-new-action" },
      ...NEW_STEP_ACTIONS.map((name) => h("option", { value: name }, name)),
    );
    const add = h("button", { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "workflow-edit-add" }, "Add a step");
    add.addEventListener("click", () => {
      this.draft = addStep(this.draft, action.value);
      this.renderSteps();
      this.stepsEl.lastElementChild?.querySelector<HTMLInputElement>('[data-testid="workflow-edit-argument"]')?.focus();
    });
    return h("div", { class: "form-actions start" }, action, add);
  }

  /** Checkboxes for the effects a replay checks after the step (those that make sense for its action). */
  private effectBoxes(step: StepDraft, number: number): HTMLElement | null {
    const offered = EFFECTS.filter(({ actions }) => actions.includes(step.original.action));
    if (offered.length === 0) return null;
    return h(
      "div",
      { class: "wf-edit-effects" },
      h("span", { class: "field-label" }, "After it"),
      ...offered.map(({ effect, label }) => {
        const box = h("input", {
          type: "checkbox",
          "aria-label": `Step ${number}: ${label}`,
          "data-testid": `workflow-edit-check-${effect}`,
        });
        box.checked = step.effects[effect];
        box.addEventListener("change", () => {
          step.effects[effect] = box.checked;
        });
        return h("label", { class: "wf-edit-effect" }, box, ` ${label}`);
      }),
    );
  }

  private parametersTable(): HTMLElement {
    if (this.draft.parameters.length === 0) return h("p", { class: "record-detail" }, "This workflow has no parameters.");
    return h(
      "table",
      { class: "wf-edit-parameters", "data-testid": "workflow-edit-parameters" },
      h("thead", null, h("tr", null, h("th", null, "Name"), h("th", null, "Default"))),
      h("tbody", null, ...this.draft.parameters.map((p) => this.parameterRow(p))),
    );
  }

  private parameterRow(parameter: ParameterDraft): HTMLElement {
    const { original } = parameter;
    const name = textInput(parameter.name, `Name of the parameter ${original.name}`, "workflow-edit-param-name", (v) => {
      parameter.name = v;
    });
    const value = isSecret(original)
      ? h("span", { class: "record-detail" }, "Secret: no default. When it runs, give the name of a saved credential.")
      : textInput(parameter.default, `Default of ${original.name}`, "workflow-edit-param-default", (v) => {
          parameter.default = v;
        });
    return h(
      "tr",
      { "data-testid": "workflow-edit-parameter", "data-name": original.name },
      h("td", null, name),
      h("td", null, value),
    );
  }

  private renderSteps(focus?: { index: number; testid: string }): void {
    const count = this.draft.steps.length;
    replaceChildren(this.stepsEl, ...this.draft.steps.map((step, index) => this.stepItem(step, index, count)));
    if (!focus) return;
    const button = this.stepsEl.children[focus.index]?.querySelector<HTMLButtonElement>(`[data-testid="${focus.testid}"]`);
    if (button && !button.disabled) button.focus();
  }

  private stepItem(step: StepDraft, index: number, count: number): HTMLElement {
    const { original } = step;
    const target = stepTarget(original);
    const key = mainArgument(original.action);
    const number = index + 1;
    const moved = step.from < 0 ? " (new)" : step.from !== index ? ` (was ${step.from + 1})` : "";
    const argument =
      key !== null && step.argument !== null
        ? h(
            "label",
            { class: "field" },
            h("span", { class: "field-label" }, ARGUMENT_LABEL[key] ?? key),
            textInput(step.argument, `Step ${number} ${key}`, "workflow-edit-argument", (v) => {
              step.argument = v;
            }),
          )
        : null;
    const button = (label: string, testid: string, disabled: boolean, act: () => WorkflowDraft, to: number) => {
      const b = h("button", { class: "btn btn-ghost btn-sm", type: "button", "data-testid": testid, disabled }, label);
      b.addEventListener("click", () => {
        this.draft = act();
        this.renderSteps({ index: to, testid });
      });
      return b;
    };
    return h(
      "li",
      { class: "wf-edit-step", "data-testid": "workflow-edit-step", "data-action": original.action },
      h(
        "div",
        { class: "wf-edit-step-head" },
        h("span", { class: "wf-step-number" }, `${number}${moved}`),
        h("code", null, original.action),
        target ? h("span", { class: "record-detail" }, `on ${target.role || target.tag} “${target.name}”`) : null,
      ),
      h(
        "div",
        { class: "wf-edit-step-fields" },
        h(
          "label",
          { class: "field" },
          h("span", { class: "field-label" }, "Intent"),
          textInput(step.intent, `Step ${number} intent`, "workflow-edit-intent", (v) => {
            step.intent = v;
          }),
        ),
        argument,
        h(
          "label",
          { class: "field" },
          h("span", { class: "field-label" }, "Page address must match"),
          textInput(
            step.urlCheck,
            `Step ${number} address check`,
            "workflow-edit-url-check",
            (v) => {
              step.urlCheck = v;
            },
            original.url ? `Any; e.g. ${original.url}*` : "Any address",
          ),
        ),
        this.effectBoxes(step, number),
      ),
      h(
        "div",
        { class: "form-actions start" },
        button("Move up", "workflow-edit-up", index === 0, () => moveStep(this.draft, index, -1), index - 1),
        button("Move down", "workflow-edit-down", index === count - 1, () => moveStep(this.draft, index, 1), index + 1),
        button("Remove", "workflow-edit-remove", false, () => removeStep(this.draft, index), index),
      ),
    );
  }

  private async submit(): Promise<void> {
    const problem = draftProblem(this.draft);
    if (problem) {
      setText(this.error, problem);
      return;
    }
    const body = patchBody(this.draft, this.options.workflow.steps.length);
    if (isEmptyPatch(body)) {
      this.options.saved(this.options.workflow);
      return;
    }
    this.save.disabled = true;
    setText(this.error, "");
    try {
      this.options.saved(await this.options.api.updateWorkflow(this.options.workflow.id, body));
    } catch (err) {
      setText(this.error, errorText(err));
    } finally {
      this.save.disabled = false;
    }
  }
}
