// The Tool Inspector's card for the selected tool: its name, source, badges and description, its input schema
// and the form drawn from it; "Call" runs it by hand and the card shows the result of the run's one step and
// the page after it.

import type { Id, Run, WebTool } from "../../api/types";
import { h, icon, ICONS, present, replaceChildren, setAttr, setText } from "../../dom";
import { errorText } from "../../errors";
import type { ConversationView } from "../../state";
import { openLightbox } from "../lightbox";
import { ToolForm } from "../toolform";
import { callOutcome, sourceLabel, type CallOutcome } from "./model";
import { badges } from "./rows";

export interface ToolDetailOptions {
  /** Calls a tool of the active tab by hand; resolves the run (202) or rejects with the API's error. */
  call: (name: string, args: Record<string, unknown>) => Promise<Run>;
  /** Closes the card (no tool selected). */
  close: () => void;
  /** The id of the conversation shown now: a call that ends after a switch is dropped. */
  viewId: () => Id | null;
  /** Draws the card again where it belongs, with the inspector's view (a call ended). */
  redraw: () => void;
}

interface LastCall {
  name: string;
  runId: Id | null;
  /** The API refused the call (409 while a run is active, 400 bad arguments …). */
  error: string | null;
}

export class ToolDetail {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly description: HTMLElement;
  private readonly note: HTMLElement;
  private readonly schema: HTMLElement;
  private readonly form: ToolForm;
  private readonly readOnlyNote: HTMLElement;
  private readonly result: HTMLElement;
  private readonly resultText: HTMLElement;
  private readonly resultHead: HTMLElement;
  private readonly screenshot: HTMLImageElement;
  /** The tool's name and the view the card was last drawn for. */
  private name: string | null = null;
  private view: ConversationView | null = null;
  /** The schema the form was drawn for: a tools.updated with the same schema keeps what was typed. */
  private formSchema: string | null = null;
  private lastCall: LastCall | null = null;
  private calling = false;
  /** The reader may call tools by hand (owner, controller). */
  private canCall = true;

  constructor(private readonly options: ToolDetailOptions) {
    this.title = h("h3", { class: "inspector-detail-title" });
    this.meta = h("div", { class: "inspector-detail-meta" });
    this.description = h("p", { class: "inspector-detail-description" });
    this.note = h("div", { class: "inspector-detail-note", role: "note" });
    this.schema = h("pre", { class: "inspector-schema", "data-testid": "inspector-schema" });
    this.form = new ToolForm(() => void this.call());
    this.readOnlyNote = h(
      "p",
      { class: "inspector-readonly", "data-testid": "inspector-readonly", hidden: true },
      "You are watching: only the owner and controllers can call tools.",
    );
    this.resultHead = h("div", { class: "inspector-result-head" });
    this.resultText = h("pre", { class: "inspector-result-text" });
    this.result = h(
      "div",
      { class: "inspector-result", "data-testid": "inspector-result", role: "status" },
      this.resultHead,
      this.resultText,
    );
    this.screenshot = h("img", {
      class: "inspector-screenshot step-shot",
      "data-testid": "inspector-screenshot",
      alt: "The page after the call",
      tabindex: "0",
    });
    const openShot = (): void => openLightbox(this.screenshot.src, this.screenshot.alt);
    this.screenshot.addEventListener("click", openShot);
    this.screenshot.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      openShot();
    });
    this.el = h(
      "div",
      { class: "inspector-detail card", "data-testid": "inspector-detail" },
      h(
        "div",
        { class: "inspector-detail-head" },
        this.title,
        h(
          "button",
          {
            class: "btn btn-ghost btn-icon btn-sm",
            type: "button",
            title: "Close",
            "aria-label": "Close the tool",
            onclick: () => this.options.close(),
          },
          icon(ICONS.close, 14),
        ),
      ),
      this.meta,
      this.description,
      this.note,
      h("details", { class: "inspector-schema-wrap" }, h("summary", null, "Input schema"), this.schema),
      this.readOnlyNote,
      this.form.el,
    );
  }

  /** Another conversation: nothing of the last one's calls or forms carries over. */
  reset(): void {
    this.formSchema = null;
    this.lastCall = null;
    this.calling = false;
  }

  /** The selection changed: the form is drawn anew; `forgetCall` drops the last call's result too. */
  selectionChanged(forgetCall: boolean): void {
    if (forgetCall) this.lastCall = null;
    this.formSchema = null;
  }

  /** Viewers see the tool but get no Call form. */
  setCanCall(callTools: boolean): void {
    if (callTools === this.canCall) return;
    this.canCall = callTools;
    this.form.el.hidden = !callTools;
    this.readOnlyNote.hidden = callTools;
  }

  /** Draws the card for the tool named `name` (undefined `tool`: it is no longer on the page). */
  render(view: ConversationView, name: string, tool: WebTool | undefined): void {
    this.view = view;
    this.name = name;
    setAttr(this.el, "data-name", name);
    if (!tool) {
      setText(this.title, name);
      replaceChildren(this.meta);
      setText(this.description, "");
      setText(this.note, "This tool is no longer on the page.");
      this.note.hidden = false;
      this.form.callButton.disabled = true;
      this.renderResult(view);
      return;
    }
    setText(this.title, tool.title || tool.name);
    replaceChildren(
      this.meta,
      h("code", { class: "tool-name" }, tool.name),
      h("span", { class: `chip tool-source${tool.source === "skill" ? " chip-skill" : ""}` }, sourceLabel(tool)),
      ...badges(tool),
    );
    setText(this.description, tool.description);
    this.description.hidden = !tool.description;
    const note = tool.shadowed ? "A SKILL tool the page shadows: calling this name runs the page's own tool." : "";
    setText(this.note, note);
    this.note.hidden = !note;
    const schemaText = tool.input_schema == null ? "" : JSON.stringify(tool.input_schema, null, 2);
    setText(this.schema, schemaText || "No input schema: the tool takes no arguments.");
    if (this.formSchema !== schemaText) {
      this.formSchema = schemaText;
      this.form.setSchema(tool.input_schema);
    }
    this.form.callButton.disabled = this.calling || this.pending(view);
    this.renderResult(view);
  }

  private pending(view: ConversationView): boolean {
    const runId = this.lastCall?.runId;
    if (runId === undefined || runId === null) return false;
    const run = view.runs.find((r) => r.id === runId);
    return callOutcome(run, view.steps[runId] ?? []).status === "running";
  }

  private renderResult(view: ConversationView): void {
    const call = this.lastCall;
    const show = !!call && call.name === this.name;
    present(this.el, this.result, show || this.calling);
    let screenshot: string | null = null;
    if (this.calling && !call) {
      this.setResult("running", `Calling ${this.name ?? ""}…`, "", false);
    } else if (call && show) {
      if (call.error !== null) {
        this.setResult("failed", `${call.name} could not be called`, call.error, false);
      } else if (call.runId !== null) {
        const outcome = callOutcome(view.runs.find((r) => r.id === call.runId), view.steps[call.runId] ?? []);
        const head =
          outcome.status === "running"
            ? `Calling ${call.name}…`
            : outcome.status === "failed"
              ? `${call.name} failed`
              : `${call.name} answered`;
        this.setResult(outcome.status, head, outcome.text || (outcome.status === "succeeded" ? "(no result)" : ""), outcome.json);
        screenshot = outcome.screenshot;
      }
    }
    if (screenshot) {
      if (this.screenshot.getAttribute("src") !== screenshot) this.screenshot.src = screenshot;
      if (this.screenshot.parentNode !== this.el) this.el.appendChild(this.screenshot);
    } else {
      this.screenshot.remove();
    }
  }

  private setResult(status: CallOutcome["status"], head: string, text: string, json: boolean): void {
    setAttr(this.result, "data-status", status);
    this.result.className = `inspector-result ${status}`;
    replaceChildren(
      this.resultHead,
      status === "running"
        ? h("span", { class: "spinner", "aria-hidden": "true" })
        : icon(status === "failed" ? ICONS.alert : ICONS.check, 14),
      h("span", null, head),
    );
    setText(this.resultText, text);
    this.resultText.hidden = !text;
    this.resultText.classList.toggle("json", json);
  }

  private async call(): Promise<void> {
    const view = this.view;
    const name = this.name;
    if (!view || !name || this.calling || !this.canCall) return;
    const { arguments: args, errors } = this.form.read();
    if (Object.keys(errors).length) return;
    this.calling = true;
    this.lastCall = null;
    this.form.callButton.disabled = true;
    this.renderResult(view);
    let call: LastCall;
    try {
      const run = await this.options.call(name, args);
      call = { name, runId: run.id, error: null };
    } catch (err) {
      const message = errorText(err);
      call = { name, runId: null, error: message };
    }
    // A conversation switched meanwhile has its own inspector state.
    if (this.options.viewId() !== view.id) return;
    this.calling = false;
    this.lastCall = call;
    this.options.redraw();
  }
}
