// A step's observation, collapsed to one line; opened, it reads as the page summary and what the action reported
// (observation.ts), and "Raw text" shows exactly what the model was given.

import { h, replaceChildren, setText, type Child } from "../../dom";
import { truncate } from "../../format";
import { observationPreview, readObservation, type ObservationSection, type ObservationView } from "../../observation";

const RAW_PREVIEW = 1200;
/** Element lists can run to hundreds of lines: the first ones show, the rest behind "more". */
const LIST_SHOWN = 12;

function rows(pairs: [string, string][], className: string): HTMLElement {
  return h(
    "dl",
    { class: className },
    ...pairs.flatMap(([label, value]) => [h("dt", null, label), h("dd", null, value)]),
  );
}

function listSection(title: string, items: string[]): HTMLElement {
  const shown = items.slice(0, LIST_SHOWN);
  const rest = items.slice(LIST_SHOWN);
  const list = h("ul", { class: "obs-list" }, ...shown.map((item) => h("li", null, item)));
  const more =
    rest.length > 0
      ? h(
          "details",
          { class: "obs-more" },
          h("summary", null, `${rest.length} more`),
          h("ul", { class: "obs-list" }, ...rest.map((item) => h("li", null, item))),
        )
      : null;
  return h("section", { class: "obs-section" }, h("h5", null, title), list, more);
}

function section(part: ObservationSection): Child {
  switch (part.kind) {
    case "heading":
      return h("h5", { class: "obs-heading" }, part.text);
    case "fields":
      return rows(part.rows, "obs-fields");
    case "list":
      return listSection(part.title, part.items);
    case "text":
      return h("p", { class: "obs-plain" }, part.text);
  }
}

function renderReadable(view: ObservationView): Child[] {
  return [view.result.length ? rows(view.result, "obs-result") : null, ...view.sections.map(section)];
}

/** Text that shows its first part and can show the rest. */
export function createExpandable(
  limit: number,
  className: string,
): { el: HTMLElement; text: HTMLElement; update(full: string): void } {
  const text = h("pre", { class: className });
  const more = h("button", { class: "link-button", type: "button" });
  let full = "";
  let expanded = false;
  const render = (): void => {
    const cut = truncate(full, limit);
    setText(text, expanded ? full : cut.text);
    more.hidden = !cut.cut;
    setText(more, expanded ? "Show less" : `Show more (${full.length.toLocaleString("en-US")} characters)`);
  };
  more.addEventListener("click", () => {
    expanded = !expanded;
    render();
  });
  return {
    el: h("div", null, text, more),
    text,
    update(next: string) {
      if (next === full) return;
      full = next;
      render();
    },
  };
}

/** The collapsible observation: readable by default, the raw text one click away. */
export function createObservation(): { el: HTMLDetailsElement; update(text: string): void } {
  const preview = h("span", { class: "obs-preview" });
  const readable = h("div", { class: "obs-readable", "data-testid": "obs-readable" });
  const raw = createExpandable(RAW_PREVIEW, "obs-text");
  raw.el.hidden = true;
  raw.el.setAttribute("data-testid", "obs-raw");
  const toggle = h("button", { class: "link-button obs-toggle", type: "button", "data-testid": "obs-raw-toggle" });
  const showRaw = (on: boolean): void => {
    raw.el.hidden = !on;
    readable.hidden = on;
    setText(toggle, on ? "Readable view" : "Raw text");
    toggle.setAttribute("aria-pressed", String(on));
  };
  toggle.addEventListener("click", () => showRaw(raw.el.hidden));
  showRaw(false);
  const el = h(
    "details",
    { class: "step-obs" },
    h("summary", null, h("span", { class: "obs-label" }, "Observation"), preview),
    readable,
    raw.el,
    toggle,
  );
  let shown: string | null = null;
  return {
    el,
    update(text: string): void {
      el.hidden = !text;
      if (text === shown) return;
      shown = text;
      const view = readObservation(text);
      setText(preview, truncate(observationPreview(view) || (text.split("\n", 1)[0] ?? ""), 90).text);
      replaceChildren(readable, ...renderReadable(view));
      raw.update(text);
    },
  };
}
