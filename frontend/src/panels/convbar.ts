// The conversation's settings, in a compact bar above the chat: which model, whether to show the model's
// reasoning, whether to ask before page/SKILL tools that change things, and whether to keep every run's trace. On the home page it holds the
// settings the next conversation starts with.

import type { ConversationSettings } from "../api/types";
import { h, icon, ICONS, replaceChildren, setAttr, setText } from "../dom";
import {
  modelOptions,
  modelValue,
  needsModelChoice,
  noModelConfigured,
  parseModelValue,
} from "../models";
import type { ModelsState } from "../state";

export interface ConversationBarOptions {
  /** Saves a change; rejects (with a message to show) when the server refused it. */
  onChange: (patch: Partial<ConversationSettings>) => Promise<void>;
  /** More choices at the row's end (the browser profile), each managing itself. */
  extra?: HTMLElement;
}

export interface ConversationBarData {
  settings: ConversationSettings;
  models: ModelsState;
  /** The conversation is still loading: nothing to change yet. */
  disabled: boolean;
  hidden: boolean;
  /** Home page: the settings of the conversation the first message starts. */
  draft: boolean;
}

export class ConversationBar {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly reasoning: HTMLInputElement;
  private readonly confirm: HTMLInputElement;
  private readonly traces: HTMLInputElement;
  private readonly hint: HTMLElement;
  private readonly error: HTMLElement;
  private optionsKey = "";
  private saving = 0;
  private last: ConversationBarData | null = null;

  constructor(private readonly options: ConversationBarOptions) {
    this.select = h("select", {
      class: "model-select",
      "data-testid": "model-select",
      "aria-label": "Model",
      onchange: () => void this.change({ model_profile: parseModelValue(this.select.value) }),
    });
    this.reasoning = h("input", {
      type: "checkbox",
      class: "switch",
      "data-testid": "toggle-reasoning",
      onchange: () => void this.change({ show_reasoning: this.reasoning.checked }),
    });
    this.confirm = h("input", {
      type: "checkbox",
      class: "switch",
      "data-testid": "toggle-confirm-mode",
      onchange: () => void this.change({ confirm_mode: this.confirm.checked ? "confirm" : "auto" }),
    });
    this.traces = h("input", {
      type: "checkbox",
      class: "switch",
      "data-testid": "toggle-trace-runs",
      onchange: () => void this.change({ trace_runs: this.traces.checked }),
    });
    this.hint = h("div", { class: "conv-bar-hint", "data-testid": "no-model-hint", role: "status", hidden: true });
    this.error = h("span", { class: "conv-bar-error", role: "alert", hidden: true });
    this.el = h(
      "div",
      { class: "conv-bar", "data-testid": "conversation-settings", role: "group", "aria-label": "Conversation settings" },
      h(
        "div",
        { class: "conv-bar-row" },
        h("label", { class: "conv-bar-model", title: "The model the agent uses in this conversation" }, icon(ICONS.cpu, 14), this.select),
        h(
          "label",
          { class: "switch-label", title: "Record the model's reasoning as steps you can read" },
          this.reasoning,
          h("span", null, "Show reasoning"),
        ),
        h(
          "label",
          {
            class: "switch-label",
            title: "Pause and ask you before the agent clicks, types or runs a SKILL that changes something",
          },
          this.confirm,
          h("span", null, "Ask before page/SKILL tools that change things"),
        ),
        h(
          "label",
          {
            class: "switch-label",
            title: "Keep every run as a Playwright trace to download (replays and failed agent turns keep theirs anyway)",
          },
          this.traces,
          h("span", null, "Trace every run"),
        ),
        options.extra ?? null,
        this.error,
      ),
      this.hint,
    );
  }

  update(data: ConversationBarData): void {
    this.last = data;
    this.el.hidden = data.hidden;
    this.el.classList.toggle("draft", data.draft);
    setAttr(this.el, "title", data.draft ? "Settings for the conversation your next message starts" : null);
    if (data.hidden) return;
    const { settings, models } = data;

    const options = modelOptions(models);
    const value = modelValue(settings.model_profile);
    // A profile we don't know (deleted elsewhere, or profiles not loaded yet) still shows as chosen.
    if (!options.some((o) => o.value === value)) options.push({ value, label: models.loaded ? `Unknown model (#${value})` : "Loading…" });
    const key = JSON.stringify(options);
    if (key !== this.optionsKey) {
      this.optionsKey = key;
      replaceChildren(this.select, ...options.map((o) => h("option", { value: o.value }, o.label)));
    }
    if (this.saving === 0) {
      this.select.value = value;
      this.reasoning.checked = settings.show_reasoning;
      this.confirm.checked = settings.confirm_mode === "confirm";
      this.traces.checked = settings.trace_runs;
    }
    this.select.disabled = this.reasoning.disabled = this.confirm.disabled = this.traces.disabled = data.disabled;

    if (noModelConfigured(models)) {
      this.showHint("No model is configured. ", "Add a model in Settings", " so the agent can work.");
    } else if (needsModelChoice(models, settings.model_profile)) {
      this.showHint("The server has no default model: choose one of yours above, or ", "manage models", ".");
    } else {
      this.hint.hidden = true;
    }
  }

  private showHint(before: string, link: string, after: string): void {
    const text = before + link + after;
    this.hint.hidden = false;
    if (this.hint.dataset.text === text) return;
    this.hint.dataset.text = text;
    replaceChildren(
      this.hint,
      icon(ICONS.alert, 14),
      h("span", null, before, h("a", { href: "/settings", "data-link": true }, link), after),
    );
  }

  private async change(patch: Partial<ConversationSettings>): Promise<void> {
    this.saving += 1;
    this.error.hidden = true;
    try {
      await this.options.onChange(patch);
    } catch (err) {
      setText(this.error, err instanceof Error ? err.message : String(err));
      this.error.hidden = false;
    } finally {
      this.saving -= 1;
      // Show what was saved (or, after a refusal, what is still in force).
      if (this.last) this.update(this.last);
    }
  }
}
