// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { askText, confirmAction } from "./dialogs";

const part = (testid: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`[data-testid="${testid}"]`);
  if (!el) throw new Error(`no ${testid}`);
  return el;
};
const press = (key: string, shiftKey = false): void => {
  document.dispatchEvent(new KeyboardEvent("keydown", { key, shiftKey, bubbles: true, cancelable: true }));
};
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => document.body.replaceChildren());

describe("the dashboard's own dialogs", () => {
  it("asks for a name, shows a refusal inside the dialog and stays open, then closes once it is done", async () => {
    const opener = document.body.appendChild(document.createElement("button"));
    opener.focus();
    const names: string[] = [];
    let refuse = true;
    const done = askText({
      title: "Save as workflow",
      label: "Name",
      required: "Give the workflow a name.",
      submitLabel: "Save",
      testid: "ask",
      submit: async (name) => {
        names.push(name);
        if (refuse) throw new Error("Only the conversation's owner can do that.");
      },
    });
    const input = part("ask-input") as HTMLInputElement;
    expect(document.activeElement).toBe(input);

    part("ask-submit").click();
    await settled();
    expect(part("ask-error").textContent).toBe("Give the workflow a name.");
    expect(names).toEqual([]);

    input.value = "  Order a card ";
    part("ask-submit").click();
    await settled();
    expect(names).toEqual(["Order a card"]);
    expect(part("ask-error").textContent).toBe("Only the conversation's owner can do that.");
    expect(part("ask-error").hidden).toBe(false);
    expect(document.querySelector('[data-testid="ask"]')).not.toBeNull();

    refuse = false;
    part("ask-submit").click();
    expect(await done).toBe(true);
    expect(document.querySelector('[data-testid="ask"]')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("keeps the focus inside while open and closes on Escape, saying nothing was done", async () => {
    let confirmed = false;
    const answer = confirmAction({
      title: "Delete this conversation?",
      text: "It cannot be undone.",
      submitLabel: "Delete",
      danger: true,
      testid: "confirm",
      confirm: async () => {
        confirmed = true;
      },
    });
    const close = part("confirm-close");
    const submit = part("confirm-submit");
    expect(document.activeElement).toBe(submit);
    press("Tab");
    expect(document.activeElement).toBe(close);
    press("Tab", true);
    expect(document.activeElement).toBe(submit);
    press("Escape");
    expect(await answer).toBe(false);
    expect(confirmed).toBe(false);
    expect(document.querySelector('[data-testid="confirm"]')).toBeNull();
  });
});
