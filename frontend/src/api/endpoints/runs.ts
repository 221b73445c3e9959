// A conversation's runs: read them, stop one, see what the model saw, answer a confirmation, and run a browser
// action by hand.

import type { Request } from "../http";
import type { ActionBody, Confirmation, Id, Run, RunDebug, RunRecording } from "../types";

export type RunsApi = ReturnType<typeof runsApi>;

export function runsApi(request: Request) {
  return {
    listRuns(conversationId: Id): Promise<Run[]> {
      return request<Run[]>("GET", `/conversations/${conversationId}/runs/`);
    },
    getRun(runId: Id): Promise<Run> {
      return request<Run>("GET", `/runs/${runId}/`);
    },
    abortRun(runId: Id): Promise<Run> {
      return request<Run>("POST", `/runs/${runId}/abort/`);
    },
    /** What the model saw: every request the run sent to the model, and the tabs shared with it. */
    getRunDebug(runId: Id): Promise<RunDebug> {
      return request<RunDebug>("GET", `/runs/${runId}/debug/`);
    },
    /** The run's recording to watch again: its frames, when each was captured and the step it shows; 404 for none. */
    getRunRecording(runId: Id): Promise<RunRecording> {
      return request<RunRecording>("GET", `/runs/${runId}/recording/`);
    },
    /** Approves or denies a step waiting for the user; 409 when already answered or expired. */
    answerConfirmation(confirmationId: Id, approve: boolean): Promise<Confirmation> {
      return request<Confirmation>("POST", `/confirmations/${confirmationId}/answer/`, { approve });
    },
    /** Runs one browser action (navigate, go_back, switch_tab …): 202 with the Run; 409 while a run is active. */
    runAction(conversationId: Id, body: ActionBody): Promise<Run> {
      return request<Run>("POST", `/conversations/${conversationId}/actions/`, {
        action: body.action,
        arguments: body.arguments ?? {},
      });
    },
  };
}
