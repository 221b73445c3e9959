import { describe, expect, it } from "vitest";
import type { Workflow } from "../../api/types";
import {
  addStep,
  draftOf,
  draftProblem,
  inCurrentNames,
  isEmptyPatch,
  mainArgument,
  moveStep,
  patchBody,
  removeStep,
} from "./edit";

const workflow: Workflow = {
  id: 7,
  name: "Order a card",
  description: "",
  created_at: "",
  updated_at: "",
  version: 1,
  parameters: [
    { name: "fullname", type: "string", default: "Ada Lovelace", label: "Name" },
    { name: "password", type: "secret", default: "", label: "Password" },
  ],
  steps: [
    {
      action: "navigate",
      arguments: { url: "http://127.0.0.1:8000/order.html" },
      intent: "open the form",
      url: "",
      target: null,
      checks: {},
      output: null,
    },
    {
      action: "type",
      arguments: { text: "{{fullname}}", delay: 0 },
      intent: "type the name",
      url: "http://127.0.0.1:8000/order.html",
      target: { tag: "input", role: "textbox", name: "Name" },
      checks: { url: "http://127.0.0.1:8000/order*", value: true },
      output: null,
    },
    {
      action: "click",
      arguments: {},
      intent: "submit",
      url: "http://127.0.0.1:8000/order.html",
      target: { tag: "button", role: "button", name: "Submit" },
      checks: { navigated: true },
      output: null,
    },
  ],
  webhook_url: "",
  access: "owner",
  owner: "ada",
};

describe("mainArgument", () => {
  it("names the argument a person edits, and none for a click", () => {
    expect(["navigate", "open_tab", "type", "select", "press_key"].map(mainArgument)).toEqual([
      "url",
      "url",
      "text",
      "value",
      "key",
    ]);
    expect(mainArgument("click")).toBeNull();
  });
});

describe("patchBody", () => {
  it("sends nothing for an untouched draft", () => {
    const body = patchBody(draftOf(workflow), workflow.steps.length);
    expect(body).toEqual({});
    expect(isEmptyPatch(body)).toBe(true);
  });

  it("renames a parameter and changes a default, keyed by the saved names, without touching the steps", () => {
    const draft = draftOf(workflow);
    draft.parameters[0]!.name = " name ";
    draft.parameters[0]!.default = "Grace Hopper";
    expect(patchBody(draft, 3)).toEqual({ rename: { fullname: "name" }, defaults: { fullname: "Grace Hopper" } });
  });

  it("never sends a default for a secret", () => {
    const draft = draftOf(workflow);
    draft.parameters[1]!.default = "club-login";
    expect(patchBody(draft, 3)).toEqual({});
  });

  it("sends the whole list with only what changed in each step", () => {
    const draft = draftOf(workflow);
    draft.steps[1]!.intent = "type the member's name";
    draft.steps[1]!.argument = "{{fullname}} Jr.";
    expect(patchBody(draft, 3).steps).toEqual([
      { from: 0 },
      { from: 1, intent: "type the member's name", arguments: { text: "{{fullname}} Jr.", delay: 0 } },
      { from: 2 },
    ]);
  });

  it("writes an edited argument with the parameters' current names when they are renamed in the same save", () => {
    const draft = draftOf(workflow);
    draft.parameters[0]!.name = "member";
    draft.steps[1]!.argument = "{{member}} ({{ member }})";
    const body = patchBody(draft, 3);
    expect(body.rename).toEqual({ fullname: "member" });
    expect(body.steps![1]).toEqual({ from: 1, arguments: { text: "{{fullname}} ({{fullname}})", delay: 0 } });
  });

  it("keeps the other checks when the address pattern changes, and drops the pattern when emptied", () => {
    const draft = draftOf(workflow);
    draft.steps[1]!.urlCheck = "";
    draft.steps[2]!.urlCheck = " http://127.0.0.1:8000/order* ";
    const [, typed, clicked] = patchBody(draft, 3).steps!;
    expect(typed).toEqual({ from: 1, checks: { value: true } });
    expect(clicked).toEqual({ from: 2, checks: { navigated: true, url: "http://127.0.0.1:8000/order*" } });
  });

  it("sends the new order and leaves a removed step out", () => {
    const moved = moveStep(removeStep(draftOf(workflow), 0), 1, -1);
    expect(patchBody(moved, 3).steps).toEqual([{ from: 2 }, { from: 1 }]);
  });
});

describe("moveStep and removeStep", () => {
  it("does not move past either end", () => {
    const draft = draftOf(workflow);
    expect(moveStep(draft, 0, -1)).toBe(draft);
    expect(moveStep(draft, 2, 1)).toBe(draft);
    expect(moveStep(draft, 0, 1).steps.map((s) => s.from)).toEqual([1, 0, 2]);
  });

  it("keeps what was typed into a step that moves", () => {
    const draft = draftOf(workflow);
    draft.steps[2]!.intent = "press Submit";
    expect(moveStep(draft, 2, -1).steps[1]!.intent).toBe("press Submit");
    expect(removeStep(draft, 1).steps.map((s) => s.intent)).toEqual(["open the form", "press Submit"]);
  });
});

describe("draftProblem", () => {
  it("asks for a name for every parameter, different names, and one step at least", () => {
    const draft = draftOf(workflow);
    expect(draftProblem(draft)).toBeNull();
    draft.parameters[0]!.name = "  ";
    expect(draftProblem(draft)).toBe("Every parameter needs a name.");
    draft.parameters[0]!.name = "password";
    expect(draftProblem(draft)).toBe("Two parameters would have the same name.");
    draft.parameters[0]!.name = "fullname";
    expect(draftProblem({ ...draft, steps: [] })).toBe("A workflow needs at least one step.");
  });
});

describe("inCurrentNames", () => {
  it("turns new names back into current ones and leaves the rest", () => {
    expect(inCurrentNames("{{b}} {{a}} {{c}}", { a: "b", b: "a" })).toBe("{{a}} {{b}} {{c}}");
    expect(inCurrentNames("{{fullname}}", { fullname: "member" })).toBe("{{fullname}}");
  });
});

describe("effects and new steps", () => {
  it("sends a step's checks when an effect is switched, keeping its address check", () => {
    const draft = draftOf(workflow);
    const typed = draft.steps[1];
    const clicked = draft.steps[2];
    if (!typed || !clicked) throw new Error("the fixture has three steps");
    typed.effects.value = false;
    clicked.effects.gone = true;
    expect(patchBody(draft, 3).steps).toEqual([
      { from: 0 },
      { from: 1, checks: { url: "http://127.0.0.1:8000/order*" } },
      { from: 2, checks: { navigated: true, gone: true } },
    ]);
  });

  it("adds a step that aims at no element, sent with its action and argument", () => {
    const draft = addStep(draftOf(workflow), "press_key");
    const added = draft.steps[3];
    if (!added) throw new Error("the step was added at the end");
    expect(draftProblem(draft)).toBe("Step 4 needs its key.");
    added.argument = "Enter";
    added.intent = "confirm";
    expect(draftProblem(draft)).toBeNull();
    expect(patchBody(draft, 3).steps?.[3]).toEqual({ action: "press_key", arguments: { key: "Enter" }, intent: "confirm" });
  });
});
