import { describe, expect, it } from "vitest";
import { observationPreview, readObservation, stripFences } from "./observation";

const NAVIGATED = `<untrusted_page_data source="navigate result">
{"status": 200, "title": "Flight club card", "navigated": true}

Page after the action:
URL: http://127.0.0.1:8931/order.html
Title: Flight club card
Viewport 1280x800, scrolled to 0,0 of 1280x800
Elements: 2 buttons, 2 inputs, 1 form
Text: Order your flight club card
Tell us who you are and we will mail the card.
Interactive elements in view: 2
[1] input "Name"
*[2] button type=submit "Submit"
</untrusted_page_data>`;

describe("a step's observation, readable", () => {
  it("takes away the fences the model reads page data in, and restores a page's own closing tag", () => {
    expect(stripFences(NAVIGATED)).not.toContain("untrusted_page_data source");
    expect(stripFences('<untrusted_page_data source="page">\nsay <\\/untrusted_page_data>\n</untrusted_page_data>')).toBe(
      "say </untrusted_page_data>",
    );
  });

  it("reads the action's report, the page summary and the element list", () => {
    const view = readObservation(NAVIGATED);
    expect(view.result).toEqual([
      ["status", "200"],
      ["title", "Flight club card"],
      ["navigated", "yes"],
    ]);
    expect(view.sections).toEqual([
      { kind: "heading", text: "Page after the action" },
      {
        kind: "fields",
        rows: [
          ["URL", "http://127.0.0.1:8931/order.html"],
          ["Title", "Flight club card"],
          ["Viewport", "1280x800, scrolled to 0,0 of 1280x800"],
          ["Elements", "2 buttons, 2 inputs, 1 form"],
          ["Text", "Order your flight club card\nTell us who you are and we will mail the card."],
        ],
      },
      { kind: "list", title: "Interactive elements in view (2)", items: ['[1] input "Name"', '*[2] button type=submit "Submit"'] },
    ]);
    expect(observationPreview(view)).toBe("status 200 · title Flight club card · navigated");
  });

  it("brings up the fields of an action's data and leaves out what the step already says", () => {
    const view = readObservation(
      '{"ok": true, "action": "navigate", "data": {"status": 404, "title": "Not found"}, "url": "https://x.test/"}',
    );
    expect(view.result).toEqual([
      ["status", "404"],
      ["title", "Not found"],
      ["url", "https://x.test/"],
    ]);
    expect(view.sections).toEqual([]);
  });

  it("keeps text it does not recognise, in order, as text", () => {
    const view = readObservation("The tab is blank (about:blank).\nNothing to read.");
    expect(view).toEqual({ result: [], sections: [{ kind: "text", text: "The tab is blank (about:blank).\nNothing to read." }] });
    expect(observationPreview(view)).toBe("The tab is blank (about:blank).");
    expect(readObservation("")).toEqual({ result: [], sections: [] });
  });

  it("reads what changed on the same page", () => {
    const view = readObservation(`<untrusted_page_data source="type result">
{"target": "element [1] (input \\"Name\\")", "value": "Ada"}

Page after the action (the same address; what changed):
Focused: [1] input
Interactive elements in view that appeared or changed:
[1] input "Name" value="Ada" focused
Gone from view: [3]
</untrusted_page_data>`);
    expect(view.result).toEqual([
      ["target", 'element [1] (input "Name")'],
      ["value", "Ada"],
    ]);
    expect(view.sections).toEqual([
      { kind: "heading", text: "Page after the action (the same address; what changed)" },
      { kind: "fields", rows: [["Focused", "[1] input"]] },
      { kind: "list", title: "Interactive elements in view that appeared or changed", items: ['[1] input "Name" value="Ada" focused'] },
      { kind: "fields", rows: [["Gone from view", "[3]"]] },
    ]);
  });
});
