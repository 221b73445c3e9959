// The home page's welcome in place of a conversation: what Hive's agent does, and tasks to start from.

import { h } from "../../dom";
import { brandMark } from "../brand";

const SUGGESTIONS = [
  "Open the demo flight search and find the cheapest flight from Paris to Rome",
  "Read the demo article and summarise it in three bullet points",
  "Find a pair of running shoes under $100 in the demo shop",
];

/** The welcome; a suggestion clicked goes into the composer (`prefill`). */
export function homeScreen(prefill: (text: string) => void): HTMLElement {
  return h(
    "div",
    { class: "empty-state" },
    h("div", { class: "empty-mark" }, brandMark(44)),
    h("h2", null, "What should your agent do?"),
    h(
      "p",
      null,
      "Describe a task. Hive's agent works in its own browser — watch it live on the right, step by step, " +
        "and take the controls whenever you like.",
    ),
    h(
      "div",
      { class: "suggestions" },
      ...SUGGESTIONS.map((s) => h("button", { class: "suggestion", type: "button", onclick: () => prefill(s) }, s)),
    ),
  );
}
