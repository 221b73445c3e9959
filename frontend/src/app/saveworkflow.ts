// "Save as workflow" on a run that worked: named by the user, then listed in Settings → Workflows.

import type { ApiClient } from "../api/client";
import type { Id } from "../api/types";
import { errorText } from "../errors";

/** Asks for a name and saves the run as a workflow; resolves what to tell the user ("" when they cancelled). */
export async function saveRunAsWorkflow(api: ApiClient, runId: Id): Promise<string> {
  const name = window.prompt("Name this workflow (it replays these steps without the model):", "");
  if (!name?.trim()) return "";
  try {
    const workflow = await api.saveWorkflow(runId, name.trim());
    const parameters = workflow.parameters.map((p) => p.name).join(", ");
    return `Saved as “${workflow.name}”${parameters ? ` (parameters: ${parameters})` : ""}. Run it from Settings → Workflows.`;
  } catch (err) {
    return `Not saved: ${errorText(err)}`;
  }
}
