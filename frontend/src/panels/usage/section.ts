// Settings → Usage: what the model cost the user in the last 30 days, a chart per day and model (cost or tokens)
// and a table of the same figures (GET /api/usage/). Days are UTC dates, as the server counts them.

import type { ApiClient } from "../../api/client";
import type { Usage, UsageRow } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { dayLabel, formatValue, usageChart, usageLegend, usageSeries, type UsageMetric } from "./chart";
import { costText, formatUsd, usd } from "./cost";

export const USAGE_DAYS = 30;

export class UsageSection {
  readonly el: HTMLElement;
  private readonly status = h("p", { class: "settings-lead", role: "status", "data-testid": "usage-status" });
  private readonly summary = h("p", { class: "usage-summary", "data-testid": "usage-summary" });
  private readonly chartSlot = h("div", { class: "usage-chart-slot" });
  private readonly tableBody = h("tbody");
  private readonly table: HTMLTableElement;
  private readonly toggles: Record<UsageMetric, HTMLButtonElement>;
  private usage: Usage | null = null;
  private metric: UsageMetric = "cost";

  constructor(private readonly api: Pick<ApiClient, "getUsage">) {
    const toggle = (metric: UsageMetric, label: string): HTMLButtonElement =>
      h("button", { class: "btn btn-ghost btn-sm", type: "button", "aria-pressed": "false", onclick: () => this.show(metric) }, label);
    this.toggles = { cost: toggle("cost", "Cost"), tokens: toggle("tokens", "Tokens") };
    this.table = h(
      "table",
      { class: "usage-table", "data-testid": "usage-table", hidden: true },
      h("thead", null, h("tr", null, ...["Day", "Model", "Calls", "Tokens", "Cost"].map((name) => h("th", { scope: "col" }, name)))),
      this.tableBody,
    );
    this.el = h(
      "section",
      { class: "settings-section usage", "data-testid": "usage", "aria-labelledby": "usage-title" },
      h(
        "div",
        { class: "settings-section-head" },
        h(
          "div",
          null,
          h("h2", { id: "usage-title" }, "Usage"),
          h(
            "p",
            { class: "settings-lead" },
            `What the model cost in your conversations in the last ${String(USAGE_DAYS)} days, per day (UTC) and model. ` +
              "A model the price table does not know shows its tokens and “price unknown”: set its price on its profile above.",
          ),
        ),
        h("div", { class: "usage-toggles", role: "group", "aria-label": "Chart" }, this.toggles.cost, this.toggles.tokens),
      ),
      this.status,
      this.summary,
      this.chartSlot,
      this.table,
    );
  }

  async load(): Promise<void> {
    setText(this.status, "Loading…");
    try {
      this.usage = await this.api.getUsage(USAGE_DAYS);
    } catch (err) {
      this.usage = null;
      setText(this.status, `Could not load your usage: ${errorText(err)}`);
      this.render();
      return;
    }
    setText(this.status, this.usage.rows.length ? "" : `No model calls in the last ${String(USAGE_DAYS)} days.`);
    this.render();
  }

  private show(metric: UsageMetric): void {
    this.metric = metric;
    this.render();
  }

  private render(): void {
    for (const [metric, button] of Object.entries(this.toggles)) button.setAttribute("aria-pressed", String(metric === this.metric));
    const usage = this.usage;
    const any = !!usage && usage.rows.length > 0;
    this.summary.hidden = !any;
    this.table.hidden = !any;
    if (!usage || !any) {
      replaceChildren(this.chartSlot);
      replaceChildren(this.tableBody);
      return;
    }
    const total = costText({ tokens: usage.total.tokens, costUsd: usd(usage.total.cost_usd), unpricedCalls: usage.total.unpriced_calls });
    const today = new Date().toISOString().slice(0, 10);
    const todays = usage.rows.filter((row) => row.day === today);
    const todayText = costText({
      tokens: todays.reduce((sum, row) => sum + row.tokens, 0),
      costUsd: todays.reduce((sum, row) => sum + usd(row.cost_usd), 0),
      unpricedCalls: todays.reduce((sum, row) => sum + row.unpriced_calls, 0),
    });
    setText(
      this.summary,
      `${String(USAGE_DAYS)} days: ${total} · ${usage.total.tokens.toLocaleString("en-US")} tokens · ` +
        `${usage.total.calls.toLocaleString("en-US")} calls · today: ${todayText || formatUsd(0)}`,
    );
    const series = usageSeries(usage, this.metric);
    replaceChildren(this.chartSlot, usageChart(series, this.metric), usageLegend(series));
    replaceChildren(this.tableBody, ...newestFirst(usage.rows).map(tableRow));
  }
}

function newestFirst(rows: readonly UsageRow[]): UsageRow[] {
  return [...rows].sort((a, b) => b.day.localeCompare(a.day) || usd(b.cost_usd) - usd(a.cost_usd) || b.tokens - a.tokens);
}

function tableRow(row: UsageRow): HTMLTableRowElement {
  const cost = costText({ tokens: row.tokens, costUsd: usd(row.cost_usd), unpricedCalls: row.unpriced_calls }, true);
  return h(
    "tr",
    { "data-testid": "usage-row", "data-day": row.day, "data-model": row.model },
    h("td", null, dayLabel(row.day)),
    h("td", { title: row.provider }, row.model || "(model not recorded)"),
    h("td", { class: "num" }, row.calls.toLocaleString("en-US")),
    h("td", { class: "num", title: `${row.prompt_tokens.toLocaleString("en-US")} in · ${row.completion_tokens.toLocaleString("en-US")} out` }, formatValue(row.tokens, "tokens").replace(" tokens", "")),
    h("td", { class: "num" }, cost),
  );
}
