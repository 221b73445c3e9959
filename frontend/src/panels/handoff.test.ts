// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { Confirmation } from "../api/types";
import { createConfirmationCard } from "./confirmation";

function asked(status: Confirmation["status"], decidedBy: string | null = null): Confirmation {
  return {
    id: 5, run: 2, step: null, action: "ask_person", arguments: { reason: "Type the code in the picture" },
    reason: "Type the code in the picture", url: "http://127.0.0.1:8123/captcha.html", status,
    decided_by: decidedBy, created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 120_000).toISOString(), decided_at: status === "pending" ? null : new Date().toISOString(),
  };
}

function button(card: HTMLElement, testId: string): HTMLButtonElement | null {
  return card.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`);
}

describe("a hand-off card (the agent asks a person to take over)", () => {
  it("says the agent needs you, with the reason, Take control and Done", () => {
    const calls: string[] = [];
    const card = createConfirmationCard(
      { confirmation: asked("pending"), runStatus: "waiting" },
      {
        answer: (id, approve) => (calls.push(`answer ${id} ${approve}`), Promise.resolve()),
        takeControl: () => (calls.push("take"), Promise.resolve()),
      },
    );
    expect(card.el.dataset.testid).toBe("handoff");
    expect(card.el.textContent).toContain("The agent needs you");
    expect(card.el.textContent).toContain("Type the code in the picture");
    expect(card.el.querySelector<HTMLElement>(".confirm-call")?.hidden).toBe(true);
    expect(card.el.textContent).toContain("take control, do it, then hand back");
    button(card.el, "handoff-take-control")?.click();
    expect(button(card.el, "confirm-approve")?.textContent).toBe("Done");
    button(card.el, "confirm-approve")?.click();
    expect(calls).toEqual(["take", "answer 5 true"]);
    card.destroy?.();
  });

  it("offers no Take control to a page that cannot take it, and says who handed back", () => {
    const card = createConfirmationCard({ confirmation: asked("pending"), runStatus: "waiting" }, {
      answer: () => Promise.resolve(),
    });
    expect(button(card.el, "handoff-take-control")).toBeNull();
    card.update({ confirmation: asked("approved", "ada"), runStatus: "running" });
    expect(card.el.textContent).toContain("Handed back");
    expect(card.el.textContent).toContain("ada handed the browser back");
    expect(button(card.el, "confirm-approve")).toBeNull();
    card.destroy?.();
  });

  it("keeps a step's confirmation as it was", () => {
    const step = { ...asked("pending"), action: "execute_js", arguments: { code: "return 1" }, reason: "runs code" };
    const card = createConfirmationCard({ confirmation: step, runStatus: "waiting" }, {
      answer: () => Promise.resolve(),
      takeControl: () => Promise.resolve(),
    });
    expect(card.el.dataset.testid).toBe("confirmation");
    expect(card.el.textContent).toContain("The agent asks before this step");
    expect(button(card.el, "confirm-approve")?.textContent).toBe("Approve");
    expect(button(card.el, "handoff-take-control")).toBeNull();
    card.destroy?.();
  });
});
