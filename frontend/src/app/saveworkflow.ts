// "Save as workflow" on a run that worked: named in the dashboard's dialog (a refusal shows there), then listed in
// Settings → Workflows.

import type { ApiClient } from "../api/client";
import type { Id } from "../api/types";
import { askText } from "../panels/dialogs";

/** Asks for a name and saves the run as a workflow; resolves what to tell the user ("" when they cancelled). */
export async function saveRunAsWorkflow(api: ApiClient, runId: Id, runLabel = ""): Promise<string> {
  let told = "";
  await askText({
    title: "Save as workflow",
    subtitle: runLabel,
    label: "Name",
    hint: "It replays these steps without the model; its inputs become parameters you fill in when you run it.",
    placeholder: "e.g. Order a club card",
    maxLength: 200,
    required: "Give the workflow a name.",
    submitLabel: "Save workflow",
    testid: "save-workflow-dialog",
    submit: async (name) => {
      const workflow = await api.saveWorkflow(runId, name);
      const parameters = workflow.parameters.map((p) => p.name).join(", ");
      told = `Saved as “${workflow.name}”${parameters ? ` (parameters: ${parameters})` : ""}. Run it from Settings → Workflows.`;
    },
  });
  return told;
}
