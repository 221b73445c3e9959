// The usage chart: one bar per UTC day of the window, stacked by model, drawn as SVG by hand. A dependency-free
// chart costs the bundle a few kilobytes, where a charting library would add tens (docs/benchmarks.md).

import type { Usage } from "../../api/types";
import { h } from "../../dom";
import { formatUsd, usd } from "./cost";

export type UsageMetric = "cost" | "tokens";

/** The window's days (every one, so a quiet day shows as a gap) and each model's value per day. */
export interface UsageSeries {
  days: string[];
  models: string[];
  /** values[day][model] */
  values: number[][];
}

const DAY_MS = 86_400_000;
export const PALETTE_SIZE = 8;

export function usageSeries(usage: Usage, metric: UsageMetric): UsageSeries {
  const start = Date.parse(`${usage.since}T00:00:00Z`);
  const days = Array.from({ length: usage.days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
  const totals = new Map<string, number>();
  for (const row of usage.rows) totals.set(row.model, (totals.get(row.model) ?? 0) + valueOf(row, metric));
  // The biggest spender first, so it sits at the bottom of each bar and first in the legend.
  const models = [...totals.keys()].sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || a.localeCompare(b));
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const modelIndex = new Map(models.map((model, i) => [model, i]));
  const values = days.map(() => models.map(() => 0));
  for (const row of usage.rows) {
    const day = values[dayIndex.get(row.day) ?? -1];
    const m = modelIndex.get(row.model);
    if (day && m !== undefined) day[m] = (day[m] ?? 0) + valueOf(row, metric);
  }
  return { days, models, values };
}

function valueOf(row: Usage["rows"][number], metric: UsageMetric): number {
  return metric === "cost" ? usd(row.cost_usd) : row.tokens;
}

export function formatValue(value: number, metric: UsageMetric): string {
  return metric === "cost" ? formatUsd(value) : `${value.toLocaleString("en-US")} tokens`;
}

/** "Nov 26" for a UTC date. */
export function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}

const WIDTH = 720;
const HEIGHT = 200;
const LEFT = 64;
const RIGHT = 24;
const BOTTOM = 22;
const TOP = 8;

/** The stacked bars, with the largest day's value on the axis and a label every week. */
export function usageChart(series: UsageSeries, metric: UsageMetric): SVGSVGElement {
  const dayTotals = series.values.map((models) => models.reduce((a, b) => a + b, 0));
  const top = Math.max(0, ...dayTotals);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, series.days.length);
  const barWidth = Math.max(2, slot * 0.72);
  const chart = svg("svg", {
    class: "usage-chart",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": `${metric === "cost" ? "Cost" : "Tokens"} per day and model, ${series.days.length} days`,
    "data-testid": "usage-chart",
  });
  const axis = (y: number, label: string): void => {
    chart.append(
      svg("line", { class: "usage-grid", x1: LEFT, x2: WIDTH - RIGHT, y1: y, y2: y }),
      svg("text", { class: "usage-axis", x: LEFT - 6, y: y + 4, "text-anchor": "end" }, label),
    );
  };
  axis(TOP + plotHeight, metric === "cost" ? "$0" : "0");
  if (top > 0) axis(TOP, formatValue(top, metric).replace(" tokens", ""));
  series.days.forEach((day, d) => {
    const x = LEFT + d * slot + (slot - barWidth) / 2;
    let y = TOP + plotHeight;
    (series.values[d] ?? []).forEach((value, m) => {
      if (value <= 0 || top <= 0) return;
      const height = Math.max(1, (value / top) * plotHeight);
      y -= height;
      chart.append(
        svg(
          "rect",
          { class: `usage-bar usage-c${m % PALETTE_SIZE}`, x, y, width: barWidth, height, "data-day": day },
          svg("title", {}, `${dayLabel(day)} · ${series.models[m]}: ${formatValue(value, metric)}`),
        ),
      );
    });
    if (d % 7 === (series.days.length - 1) % 7) {
      chart.append(
        svg("text", { class: "usage-axis", x: x + barWidth / 2, y: HEIGHT - 6, "text-anchor": "middle" }, dayLabel(day)),
      );
    }
  });
  return chart;
}

/** Which colour is which model. */
export function usageLegend(series: UsageSeries): HTMLElement {
  return h(
    "ul",
    { class: "usage-legend", "data-testid": "usage-legend" },
    ...series.models.map((model, m) =>
      h("li", null, h("span", { class: `usage-swatch usage-c${m % PALETTE_SIZE}`, "aria-hidden": "true" }), model || "(model not recorded)"),
    ),
  );
}
