// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { ConversationFile, Run } from "../../api/types";
import { applyServerEvent } from "../../reducer";
import { emptyConversationView } from "../../state";
import { buildTimeline } from "../../timeline";
import { createRunBlock } from "../steps";

const run: Run = {
  id: 8, conversation: 2, number: 1, status: "succeeded", error: "", prompt_tokens: 0, completion_tokens: 0,
  created_at: "2026-01-01T10:00:00Z", started_at: null, finished_at: null, kind: "turn", started_by: "ada",
  model_calls: 2,
};
const file = (id: number, extra: Partial<ConversationFile> = {}): ConversationFile => ({
  id, name: "report.csv", size: 1530, content_type: "text/csv", origin: "download",
  created_at: "2026-01-01T10:00:05Z", url: `/api/conversations/2/files/${id}/download/`,
  source_url: "https://reports.test/report.csv", run: 8, step: 3, ...extra,
});

describe("downloaded files in the chat", () => {
  it("adds each download once, from the event and the list alike, and leaves uploads to the composer", () => {
    let view = { ...emptyConversationView(2), runs: [run] };
    view = applyServerEvent(view, { type: "file.created", file: file(5) });
    view = applyServerEvent(view, { type: "file.created", file: file(5) });
    view = applyServerEvent(view, { type: "file.created", file: file(6, { origin: "upload", run: null }) });
    expect(view.downloads.map((f) => f.id)).toEqual([5]);

    const items = buildTimeline({ ...view, downloads: [...view.downloads, file(7, { run: 9 })] });
    const runItem = items.find((item) => item.kind === "run");
    expect(runItem?.kind === "run" && runItem.files.map((f) => f.id)).toEqual([5]);
  });

  it("shows a card with the name, size, type and a link that downloads the file", () => {
    const block = createRunBlock({ run, steps: [], files: [file(5), file(6, { name: "q3.pdf", content_type: "application/pdf", size: 48_000 })] });
    const cards = [...block.el.querySelectorAll<HTMLElement>('[data-testid="download-card"]')];
    expect(cards.map((c) => c.querySelector(".download-card-name")?.textContent)).toEqual(["report.csv", "q3.pdf"]);
    expect(cards.map((c) => c.querySelector(".download-card-meta")?.textContent)).toEqual(["1.5 KB · CSV", "48 KB · PDF"]);
    const link = cards[0]?.querySelector("a");
    expect(link?.getAttribute("href")).toBe("/api/conversations/2/files/5/download/");
    expect(link?.hasAttribute("download")).toBe(true);

    block.update({ run, steps: [] });
    expect(block.el.querySelector('[data-testid="run-downloads"]')?.hasAttribute("hidden")).toBe(true);
  });
});
