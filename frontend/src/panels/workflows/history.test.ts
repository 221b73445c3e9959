// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../api/client";
import type { WorkflowRun } from "../../api/types";
import { WorkflowHistory } from "./history";

const replay: WorkflowRun = {
  id: 4, conversation: 2, status: "succeeded", error: "", version: 1, parameters: {}, url: "",
  created_at: "2026-01-01T10:00:00Z", finished_at: "2026-01-01T10:00:09Z", prompt_tokens: 0, outputs: {},
  downloads: [
    {
      id: 9, name: "report.csv", size: 67, content_type: "text/csv", origin: "download",
      created_at: "2026-01-01T10:00:05Z", url: "/api/conversations/2/files/9/download/",
      source_url: "https://reports.test/report.csv", run: 4, step: 12,
    },
  ],
};

describe("a workflow's history", () => {
  it("links the files each replay downloaded, and shows nothing for a replay that downloaded none", async () => {
    const api = { listWorkflowRuns: async () => [replay, { ...replay, id: 3, downloads: [] }] } as unknown as ApiClient;
    const history = new WorkflowHistory(api, 1);
    await history.load();
    const blocks = history.el.querySelectorAll('[data-testid="workflow-run-downloads"]');
    expect(blocks).toHaveLength(1);
    const link = blocks[0]?.querySelector("a");
    expect(link?.textContent).toBe("report.csv");
    expect(link?.getAttribute("href")).toBe("/api/conversations/2/files/9/download/");
  });
});
