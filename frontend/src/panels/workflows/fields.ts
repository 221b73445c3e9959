// A field per parameter of a workflow, defaults filled in: the run form and the schedule form both use them.

import type { Workflow } from "../../api/types";
import { h } from "../../dom";
import { isSecret } from "./edit";
import { workflowValues } from "./format";

export interface ParameterFields {
  readonly fields: HTMLElement[];
  /** Every parameter's value as typed (an emptied field sends an empty value). */
  values(): Record<string, string>;
}

/** `testidPrefix` + the parameter's name is each input's test id ("workflow-param-email"). */
export function parameterFields(workflow: Workflow, testidPrefix: string): ParameterFields {
  const typed = new Map<string, string>();
  const fields = workflow.parameters.map((parameter) => {
    const label = parameter.label || parameter.name;
    const secret = isSecret(parameter);
    const input = h("input", {
      class: "input",
      value: parameter.default,
      placeholder: secret ? "Saved credential's name" : null,
      "aria-label": label,
      "data-testid": `${testidPrefix}${parameter.name}`,
    });
    input.addEventListener("input", () => typed.set(parameter.name, input.value));
    return h(
      "label",
      { class: "field" },
      h("span", { class: "field-label" }, label),
      input,
      secret ? h("span", { class: "field-hint" }, "A secret: give the name of a credential you saved.") : null,
    );
  });
  return { fields, values: () => workflowValues(workflow, typed) };
}
