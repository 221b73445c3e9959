// Workflows: save a run as one, replay it, edit it, and its versions, shares, webhook and schedules.

import type { Request } from "../http";
import type { Id, ProfileStart, Run, WebhookDelivery, Workflow, WorkflowPatch, WorkflowRun, WorkflowSchedule, WorkflowScheduleInput, WorkflowVersion, WorkflowWebhook } from "../types";

export type WorkflowsApi = ReturnType<typeof workflowsApi>;

export function workflowsApi(request: Request) {
  return {
    listWorkflows(): Promise<Workflow[]> {
      return request<Workflow[]>("GET", "/workflows/");
    },
    saveWorkflow(runId: Id, name: string): Promise<Workflow> {
      return request<Workflow>("POST", `/runs/${runId}/workflow/`, { name });
    },
    /** A replay in a new conversation, its browser started from `start`'s profile when one is given. */
    runWorkflow(workflowId: Id, parameters: Record<string, string>, start: ProfileStart = {}): Promise<Run> {
      return request<Run>("POST", `/workflows/${workflowId}/runs/`, { parameters, ...start });
    },
    listWorkflowRuns(workflowId: Id): Promise<WorkflowRun[]> {
      return request<WorkflowRun[]>("GET", `/workflows/${workflowId}/runs/`);
    },
    shareWorkflow(workflowId: Id, username: string, role: "viewer" | "controller"): Promise<{ id: Id; username: string; role: string }> {
      return request("POST", `/workflows/${workflowId}/shares/`, { username, role });
    },
    deleteWorkflow(workflowId: Id): Promise<void> {
      return request<undefined>("DELETE", `/workflows/${workflowId}/`);
    },
    /** Renames and new defaults of parameters and the edited steps, in one request (a new version). */
    updateWorkflow(workflowId: Id, patch: WorkflowPatch): Promise<Workflow> {
      return request<Workflow>("PATCH", `/workflows/${workflowId}/`, patch);
    },
    listWorkflowVersions(workflowId: Id): Promise<WorkflowVersion[]> {
      return request<WorkflowVersion[]>("GET", `/workflows/${workflowId}/versions/`);
    },
    setWorkflowWebhook(workflowId: Id, url: string): Promise<WorkflowWebhook> {
      return request<WorkflowWebhook>("POST", `/workflows/${workflowId}/webhook/`, { url });
    },
    removeWorkflowWebhook(workflowId: Id): Promise<void> {
      return request<undefined>("DELETE", `/workflows/${workflowId}/webhook/`);
    },
    listWebhookDeliveries(workflowId: Id): Promise<WebhookDelivery[]> {
      return request<WebhookDelivery[]>("GET", `/workflows/${workflowId}/deliveries/`);
    },
    listWorkflowSchedules(workflowId: Id): Promise<WorkflowSchedule[]> {
      return request<WorkflowSchedule[]>("GET", `/workflows/${workflowId}/schedules/`);
    },
    createWorkflowSchedule(workflowId: Id, body: WorkflowScheduleInput): Promise<WorkflowSchedule> {
      return request<WorkflowSchedule>("POST", `/workflows/${workflowId}/schedules/`, body);
    },
    deleteWorkflowSchedule(workflowId: Id, scheduleId: Id): Promise<void> {
      return request<undefined>("DELETE", `/workflows/${workflowId}/schedules/${scheduleId}/`);
    },
  };
}
