"""WebMCP in the pool: how soon a page's tools are discovered, and what a tool call through the library costs beyond
the tool's own time; Chromium's native WebMCP vs Hive's polyfill.

Run: .venv/bin/python bench/webmcp_discovery.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.webmcp import PageToolWatcher, ToolRecord, call_tool, install_bridge  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

WEBMCP_FLAG = "--enable-features=WebMCP"
TOOLS_PAGE = """<!doctype html><meta charset="utf-8"><title>Tools</title>
<form toolname="find_flights" tooldescription="Find flights" toolautosubmit><input name="from" required></form>
<script>
  const mc = document.modelContext;
  for (const name of ["list_flights", "set_filters", "search_flights"]) {
    mc.registerTool({ name, description: name, inputSchema: { type: "object" }, execute: () => ({ ok: true }) });
  }
  mc.registerTool({ name: "instant", description: "answers at once", execute: () => "done" });
  mc.registerTool({ name: "wait50", description: "answers after 50 ms",
                    execute: () => new Promise((resolve) => setTimeout(() => resolve("done"), 50)) });
  window.registeredAt = performance.timeOrigin + performance.now();
</script>"""
EMPTY_PAGE = "<!doctype html><title>Empty</title><p>No tools here.</p>"
EXPECTED = {"find_flights", "list_flights", "set_filters", "search_flights", "instant", "wait50"}


def report(name: str, samples_ms: list[float]) -> None:
    print(
        f"{name:<58} n={len(samples_ms):<4} p50={percentile(samples_ms, 0.5):7.2f} ms"
        f"  p95={percentile(samples_ms, 0.95):7.2f} ms  mean={statistics.fmean(samples_ms):7.2f} ms"
    )


class Discovered:
    """Wall-clock time (ms since the epoch, like the page's clock) at which the watcher reported a tool set."""

    def __init__(self) -> None:
        self.at: dict[frozenset[str], float] = {}
        self.event = asyncio.Event()

    async def __call__(self, tools: list[ToolRecord]) -> None:
        self.at[frozenset(t.name for t in tools)] = time.time() * 1000
        self.event.set()

    async def wait(self, names: set[str]) -> float:
        key = frozenset(names)
        async with asyncio.timeout(10):
            while key not in self.at:
                self.event.clear()
                await self.event.wait()
        return self.at.pop(key)


async def discovery_after_load(
    watcher: PageToolWatcher, seen: Discovered, base: str, runs: int
) -> tuple[list[float], list[float]]:
    """Per load: from starting the navigation, and from the page's own registration, to the tools being known."""
    page = watcher.page
    from_navigation, from_registration = [], []
    for i in range(runs):
        await page.goto(f"{base}/empty.html?{i}")
        await watcher.wait_for(lambda tools: not tools)
        seen.at.clear()
        started = time.time() * 1000
        await page.goto(f"{base}/tools.html?{i}", wait_until="commit")
        found = await seen.wait(EXPECTED)
        registered = await page.evaluate("() => window.registeredAt")
        from_navigation.append(found - started)
        from_registration.append(found - registered)
    return from_navigation, from_registration


async def discovery_of_late_tool(page: Page, seen: Discovered, runs: int) -> list[float]:
    """A single-page app registering one more tool (and dropping it again) without a reload."""
    samples = []
    for i in range(runs):
        registered = await page.evaluate(
            """(name) => { window.late = new AbortController();
                 document.modelContext.registerTool({ name, description: "late", execute: () => 1 },
                                                    { signal: window.late.signal });
                 return performance.timeOrigin + performance.now(); }""",
            f"late_{i}",
        )
        samples.append(await seen.wait(EXPECTED | {f"late_{i}"}) - registered)
        await page.evaluate("() => window.late.abort()")
        await seen.wait(EXPECTED)
        # An app does not churn tools many times a second; back to back, discovery's rate limit would be measured.
        await asyncio.sleep(0.1)
    return samples


async def call_overhead(page: Page, name: str, tool_ms: float, runs: int) -> tuple[list[float], list[float]]:
    """call_tool's wall time minus the tool's own time, and the same for a bare in-page executeTool round trip."""
    library, bare = [], []
    for _ in range(runs):
        started = time.perf_counter()
        result = await call_tool(page, name, {})
        assert result.ok, result.error
        library.append((time.perf_counter() - started) * 1000 - tool_ms)
        started = time.perf_counter()
        await page.evaluate(
            """async (name) => { const mc = document.modelContext;
                 return mc.executeTool((await mc.getTools()).find((t) => t.name === name), {}); }""",
            name,
        )
        bare.append((time.perf_counter() - started) * 1000 - tool_ms)
    return library, bare


async def bridge_cost(browser: Browser, base: str, runs: int) -> list[float]:
    """What the bridge's init script costs each document: time between init scripts added just before and after."""
    context = await browser.new_context()
    await context.add_init_script(script="window.beforeBridge = performance.now()")
    await install_bridge(context)
    await context.add_init_script(script="window.afterBridge = performance.now()")
    page = await context.new_page()
    samples = []
    for i in range(runs):
        await page.goto(f"{base}/tools.html?cost{i}")
        samples.append(await page.evaluate("() => window.afterBridge - window.beforeBridge"))
    await context.close()
    return samples


async def bench_mode(browser: Browser, mode: str, base: str, runs: int) -> None:
    report(f"[{mode}] bridge init script, per document", await bridge_cost(browser, base, runs))
    context = await browser.new_context()
    await install_bridge(context)
    page = await context.new_page()
    seen = Discovered()
    watcher = PageToolWatcher(page, on_change=seen)
    await watcher.start()

    from_navigation, from_registration = await discovery_after_load(watcher, seen, base, runs)
    report(f"[{mode}] load: navigation start -> tools discovered", from_navigation)
    report(f"[{mode}] load: page registered -> tools discovered", from_registration)
    report(f"[{mode}] late registration (no reload) -> discovered", await discovery_of_late_tool(page, seen, runs))
    for name, tool_ms in (("instant", 0.0), ("wait50", 50.0)):
        library, bare = await call_overhead(page, name, tool_ms, runs)
        report(f"[{mode}] call_tool({name}) beyond the tool's {tool_ms:.0f} ms", library)
        report(f"[{mode}]   for comparison: bare page.evaluate(executeTool)", bare)
    await watcher.close()
    await context.close()


async def main(runs: int) -> None:
    config = BrowserConfig()
    print(f"Chromium {config.executable_path}, {runs} runs per figure, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "tools.html").write_text(TOOLS_PAGE)
        (root / "empty.html").write_text(EMPTY_PAGE)
        with serve_directory(root) as base:
            async with async_playwright() as playwright:
                for mode in ("native", "polyfill"):
                    args = config.args if mode == "native" else [a for a in config.args if a != WEBMCP_FLAG]
                    browser = await playwright.chromium.launch(
                        executable_path=config.executable_path, headless=True, args=args
                    )
                    try:
                        await bench_mode(browser, mode, base, runs)
                    finally:
                        await browser.close()
                    print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    asyncio.run(main(3 if args.smoke else args.runs))
