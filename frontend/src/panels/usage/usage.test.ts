// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { Run, Usage, UsageRow } from "../../api/types";
import { readPrice, priceText } from "../settings/price";
import { usageSeries } from "./chart";
import { conversationCostText, costText, formatUsd, runCostText } from "./cost";
import { UsageSection } from "./section";

const run = (fields: Partial<Run>): Run => ({
  id: 1,
  conversation: 1,
  status: "succeeded",
  error: "",
  prompt_tokens: 1200,
  completion_tokens: 34,
  cost_usd: "0.0042000000",
  unpriced_calls: 0,
  created_at: "2025-01-01T00:00:00Z",
  started_at: null,
  finished_at: null,
  ...fields,
});

const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const row = (fields: Partial<UsageRow>): UsageRow => ({
  day: today,
  model: "gpt-4o-mini",
  provider: "openai",
  calls: 1,
  prompt_tokens: 900,
  completion_tokens: 100,
  cached_tokens: 0,
  tokens: 1000,
  cost_usd: "0.0003000000",
  unpriced_calls: 0,
  ...fields,
});

function usageOf(rows: UsageRow[]): Usage {
  const sum = (pick: (r: UsageRow) => number): number => rows.reduce((total, r) => total + pick(r), 0);
  return {
    days: 30,
    since: daysAgo(29),
    currency: "USD",
    rows,
    total: {
      calls: sum((r) => r.calls),
      tokens: sum((r) => r.tokens),
      cost_usd: String(sum((r) => Number(r.cost_usd))),
      unpriced_calls: sum((r) => r.unpriced_calls),
    },
  };
}

function sectionWith(answer: Usage | Error): { section: UsageSection; asked: number[] } {
  const asked: number[] = [];
  const api = {
    getUsage: (days?: number): Promise<Usage> => {
      asked.push(days ?? 0);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { section: new UsageSection(api), asked };
}

const texts = (root: Element, selector: string): string[] =>
  [...root.querySelectorAll(selector)].map((el) => el.textContent);

describe("what a run or a conversation cost", () => {
  it("shows dollars with two significant digits below a dollar, cents above", () => {
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(0.00345)).toBe("$0.0035");
    expect(formatUsd(0.5)).toBe("$0.50");
    expect(formatUsd(0.12)).toBe("$0.12");
    expect(formatUsd(0.001)).toBe("$0.001");
    expect(formatUsd(3.456)).toBe("$3.46");
    expect(formatUsd(1234)).toBe("$1,234.00");
    expect(formatUsd(0.00001)).toBe("< $0.0001");
  });

  it("says 'price unknown' for calls the table could not price, never $0", () => {
    expect(runCostText(run({}))).toBe("$0.0042");
    expect(runCostText(run({ cost_usd: "0", unpriced_calls: 2 }))).toBe("price unknown");
    expect(runCostText(run({ unpriced_calls: 1 }))).toBe("$0.0042 + 1 call price unknown");
    expect(costText({ tokens: 1234, costUsd: 0, unpricedCalls: 3 })).toBe("1,234 tokens · price unknown");
    expect(runCostText(run({ prompt_tokens: 0, completion_tokens: 0, cost_usd: "0", unpriced_calls: 0 }))).toBe("");
  });

  it("adds a conversation's runs up", () => {
    const runs = [run({}), run({ id: 2, cost_usd: "0.0058" }), run({ id: 3, prompt_tokens: 0, completion_tokens: 0, cost_usd: "0" })];
    expect(conversationCostText(runs)).toBe("$0.01");
    expect(conversationCostText([run({ cost_usd: "0", unpriced_calls: 1 })])).toBe("1,234 tokens · price unknown");
    expect(conversationCostText([])).toBe("");
  });
});

describe("Settings → Usage", () => {
  it("draws a bar per model and day and lists the same figures in the table", async () => {
    const rows = [
      row({}),
      row({ model: "deepseek-chat", provider: "deepseek", cost_usd: "0.0010000000", calls: 2, tokens: 4000 }),
      row({ day: daysAgo(3), cost_usd: "0.0200000000", calls: 5, tokens: 50_000 }),
      row({ model: "llama3.1", provider: "ollama", cost_usd: "0", unpriced_calls: 3, calls: 3, tokens: 2345 }),
    ];
    const { section, asked } = sectionWith(usageOf(rows));
    await section.load();
    expect(asked).toEqual([30]);
    const chart = section.el.querySelector("[data-testid=usage-chart]");
    expect(chart).not.toBeNull();
    // The unpriced model has no cost to draw; the other three figures are bars.
    expect(chart?.querySelectorAll("rect.usage-bar")).toHaveLength(3);
    expect(texts(section.el, "[data-testid=usage-legend] li")).toEqual(["gpt-4o-mini", "deepseek-chat", "llama3.1"]);
    const table = texts(section.el, "[data-testid=usage-row] td:last-child");
    expect(table).toEqual(["$0.001", "$0.0003", "price unknown", "$0.02"]);
    const first = section.el.querySelector("[data-testid=usage-row]");
    expect(texts(first!, "td").slice(1, 4)).toEqual(["deepseek-chat", "2", "4,000"]);
    const summary = section.el.querySelector("[data-testid=usage-summary]")?.textContent ?? "";
    expect(summary).toContain("30 days: $0.021 + 3 calls price unknown");
    expect(summary).toContain("today: $0.0013 + 3 calls price unknown");
  });

  it("charts tokens on request, so a model without a price still shows", async () => {
    const { section } = sectionWith(usageOf([row({ model: "llama3.1", cost_usd: "0", unpriced_calls: 1, tokens: 2345 })]));
    await section.load();
    expect(section.el.querySelectorAll("rect.usage-bar")).toHaveLength(0);
    const tokens = [...section.el.querySelectorAll("button")].find((b) => b.textContent === "Tokens");
    tokens?.click();
    expect(tokens?.getAttribute("aria-pressed")).toBe("true");
    const bars = section.el.querySelectorAll("rect.usage-bar");
    expect(bars).toHaveLength(1);
    expect(bars[0]?.textContent).toContain("llama3.1: 2,345 tokens");
  });

  it("says when there is nothing yet, and when the usage could not be loaded", async () => {
    const empty = sectionWith(usageOf([])).section;
    await empty.load();
    expect(empty.el.querySelector("[data-testid=usage-status]")?.textContent).toBe("No model calls in the last 30 days.");
    expect(empty.el.querySelector<HTMLElement>("[data-testid=usage-table]")?.hidden).toBe(true);
    const failing = sectionWith(new Error("offline")).section;
    await failing.load();
    expect(failing.el.querySelector("[data-testid=usage-status]")?.textContent).toBe("Could not load your usage: offline");
  });

  it("gives every day of the window a place, quiet days included", () => {
    const series = usageSeries(usageOf([row({ day: daysAgo(29) }), row({})]), "cost");
    expect(series.days).toHaveLength(30);
    expect(series.days[0]).toBe(daysAgo(29));
    expect(series.days.at(-1)).toBe(today);
    expect(series.values.filter((day) => (day[0] ?? 0) > 0)).toHaveLength(2);
  });
});

describe("a profile's own price", () => {
  it("takes both prices or neither, as decimal dollars", () => {
    expect(readPrice({ price_input_per_mtok: " 0.15 ", price_output_per_mtok: "0.6" })).toEqual({
      body: { price_input_per_mtok: "0.15", price_output_per_mtok: "0.6" },
      errors: {},
    });
    expect(readPrice({ price_input_per_mtok: "", price_output_per_mtok: "" }).body).toEqual({
      price_input_per_mtok: null,
      price_output_per_mtok: null,
    });
    expect(readPrice({ price_input_per_mtok: "1", price_output_per_mtok: "" }).errors).toEqual({
      price_output_per_mtok: "Set both prices, or neither to use the price table's.",
    });
    expect(Object.keys(readPrice({ price_input_per_mtok: "-1", price_output_per_mtok: "1e3" }).errors)).toEqual([
      "price_input_per_mtok",
      "price_output_per_mtok",
    ]);
    expect(priceText("0.150000")).toBe("0.15");
    expect(priceText(null)).toBe("");
  });
});
