"""How fast a turn gets a browser session: warm pool acquire vs a new context + page vs a cold browser launch; the
CPU a new context + page costs the browser, with Hive's switches beside Chromium's defaults; and what a worker's
first launch costs, its feature switches learned from a stand-in for Chromium beside learned from a first browser.

Run: .venv/bin/python bench/pool_acquire.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import percentile, wait_quiet  # noqa: E402
from browser_pool import flags  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.types import SavedSession  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402


def report(name: str, samples_s: list[float]) -> None:
    ms = [s * 1000 for s in samples_s]
    print(
        f"{name:<44} n={len(ms):<4} p50={percentile(ms, 0.5):8.2f} ms  p95={percentile(ms, 0.95):8.2f} ms"
        f"  mean={statistics.fmean(ms):8.2f} ms"
    )


async def timed(runs: int, once: Callable[[], Awaitable[None]], between: Callable[[], Awaitable[None]]) -> list[float]:
    samples = []
    for _ in range(runs):
        await between()
        started = time.perf_counter()
        await once()
        samples.append(time.perf_counter() - started)
    return samples


async def nothing() -> None:
    return None


async def cold_launches(runs: int, config: BrowserConfig) -> list[float]:
    """A browser launched for the turn: launch + context + first page (Playwright's driver already running)."""
    samples = []
    async with async_playwright() as playwright:
        for _ in range(runs):
            started = time.perf_counter()
            browser = await playwright.chromium.launch(
                executable_path=config.executable_path, headless=True, args=config.args
            )
            context = await browser.new_context()
            await context.new_page()
            samples.append(time.perf_counter() - started)
            await browser.close()
    return samples


async def quiet_cpu_s(pid: int) -> float:
    """CPU seconds of the browser's whole process tree, read once it has gone quiet: what a new context sets going
    goes on after the page is handed back."""
    return sum((await asyncio.to_thread(wait_quiet, {"browser": pid})).values())


async def context_cpu(rounds: int, config: BrowserConfig) -> None:
    """CPU of every process of the browser per new context + page (about:blank), two browsers in turns: Hive's
    switches, and the same without the two that keep each new window from loading the address bar's drop-down."""
    hive = config.args
    defaults = [a for a in hive if not a.startswith(flags.DISABLE)]
    defaults.append(flags.DISABLE + ",".join(n for n in flags.DISABLED if n not in flags.UNSEEN_WINDOW_PAGES))
    spent: dict[str, list[float]] = {"Hive's switches": [], "address bar drop-down on": []}
    async with async_playwright() as playwright:
        browsers = {}
        for label, args in zip(spent, (hive, defaults), strict=True):
            browser = await flags.launch(playwright.chromium, config, args=args)
            pid = await flags.browser_pid(browser)
            assert pid is not None
            browsers[label] = (browser, pid)
        try:
            for _ in range(rounds + 1):  # the first round warms each browser up and is not counted
                for label, (browser, pid) in browsers.items():
                    before = await quiet_cpu_s(pid)
                    context = await browser.new_context()
                    await (await context.new_page()).goto("about:blank")
                    spent[label].append(await quiet_cpu_s(pid) - before)
                    await context.close()
        finally:
            for browser, _ in browsers.values():
                await browser.close()
    print("\nCPU of the browser's processes per new context + page, in turns, the first round left out")
    for label, samples in spent.items():
        counted = [s * 1000 for s in samples[1:]]
        print(f"  {label:<28} median {statistics.median(counted):7.0f} ms  (n={len(counted)}, "
              f"{min(counted):.0f}-{max(counted):.0f})")  # fmt: skip


async def _first_launch(learn: str) -> None:
    """This process's first launch, as a worker's: `learn` "stand-in" as Hive does, "relaunch" as it did (a first
    browser launched, its command line read, then closed and launched again)."""
    if learn == "relaunch":

        async def no_stand_in(chromium: object, args: list[str]) -> list[str]:
            return []

        flags._switches_of_a_stand_in = no_stand_in  # type: ignore[assignment]
    async with async_playwright() as playwright:
        browser = await flags.launch(playwright.chromium, BrowserConfig())
        await browser.close()


def first_launches(runs: int) -> None:
    """Wall and CPU time (every process, Chromium's included) of a fresh process starting Playwright and its first
    browser, the two ways in turns."""
    spent: dict[str, tuple[list[float], list[float]]] = {"stand-in": ([], []), "relaunch": ([], [])}
    for _ in range(runs):
        for learn, (walls, cpus) in spent.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--first-launch", learn], check=True)
            walls.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print("\nA worker's first launch (a fresh process: Python, Playwright's driver, one browser started and closed)")
    for learn, label in (
        ("stand-in", "switches from a stand-in (Hive)"),
        ("relaunch", "from a first browser (before)"),
    ):
        walls, cpus = spent[learn]
        print(f"  {label:<34} wall median {statistics.median(walls) * 1000:6.0f} ms, CPU median "
              f"{statistics.median(cpus) * 1000:6.0f} ms (n={runs})")  # fmt: skip


def write_saved_page(root: Path) -> None:
    (root / "page.html").write_text("<!doctype html><title>Saved</title><p>A page a user had open.</p>")


async def main(runs: int, bursts: int = 3) -> None:
    config = BrowserConfig(max_sessions=runs + 10, warm_contexts=2, idle_timeout_s=3600)
    print(f"Chromium {config.executable_path}, {runs} runs per figure, viewport {config.viewport_width}x"
          f"{config.viewport_height}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")  # fmt: skip

    report("cold: launch + context + first page", await cold_launches(max(5, runs // 5), config))
    await context_cpu(max(1, runs // 5), config)
    await asyncio.to_thread(first_launches, max(1, runs // 10))

    pool = BrowserPool(config)
    await pool.start()
    try:
        browser = pool._browser
        assert browser is not None
        contexts = []

        async def new_context() -> None:
            contexts.append(await browser.new_context())

        async def new_page() -> None:
            await contexts[-1].new_page()

        context_samples = await timed(runs, new_context, nothing)
        page_samples = []
        for context in contexts:
            started = time.perf_counter()
            await context.new_page()
            page_samples.append(time.perf_counter() - started)
        report("new context (no page)", context_samples)
        report("new page in a fresh context", page_samples)
        report("new context + page", [c + p for c, p in zip(context_samples, page_samples, strict=True)])
        for context in contexts:
            await context.close()

        keys = iter(range(1_000_000))

        async def warm_refilled() -> None:
            # Acquires spaced out like turns are: the background refill has finished before the next one.
            while pool.load.warm_contexts < config.warm_contexts:  # noqa: ASYNC110 - polling a counter is the point
                await asyncio.sleep(0.005)

        async def acquire() -> None:
            await pool.acquire(f"warm-{next(keys)}")

        report("warm pool acquire (pool refilled between)", await timed(runs, acquire, warm_refilled))
        for info in pool.sessions:
            await pool.close_session(info.key, save=False)

        async def acquire_and_evaluate() -> None:
            session = await pool.acquire(f"warm-{next(keys)}")
            await session.active_page.evaluate("1 + 1")  # proves the page's renderer is already up

        report("warm acquire + first evaluate on its page", await timed(runs, acquire_and_evaluate, warm_refilled))
        for info in pool.sessions:
            await pool.close_session(info.key, save=False)

        async def back_to_back() -> None:
            await pool.acquire(f"burst-{next(keys)}")

        await warm_refilled()
        burst = await timed(runs, back_to_back, nothing)
        report(f"back-to-back acquires (warm_contexts={config.warm_contexts}, adapting)", burst)
        for info in pool.sessions:
            await pool.close_session(info.key, save=False)

        # Bursts of new conversations with a pause between them, as a deploy or a class starting would bring: the
        # first finds the configured warm contexts; the pool then keeps as many ready as the burst took.
        size = min(10, runs)
        fresh = BrowserPool(BrowserConfig(max_sessions=size * 2, warm_contexts=2, idle_timeout_s=3600))
        await fresh.start()
        try:
            waves = []
            for _ in range(bursts):
                while fresh.load.warm_contexts < fresh._warm_wanted:  # noqa: ASYNC110 - the pause between bursts
                    await asyncio.sleep(0.01)

                async def burst_acquire(pool: BrowserPool = fresh) -> None:
                    await pool.acquire(f"wave-{next(keys)}")

                waves.append(await timed(size, burst_acquire, nothing))
                for info in fresh.sessions:
                    await fresh.close_session(info.key, save=False)
        finally:
            await fresh.stop(save_sessions=False)
        report(f"burst of {size} acquires, the first (warm_contexts=2)", waves[0])
        report(f"burst of {size} acquires, after the pool adapted", [s for wave in waves[1:] for s in wave])

        with tempfile.TemporaryDirectory() as root:
            write_saved_page(Path(root))
            with serve_directory(Path(root)) as base:
                saved = SavedSession(
                    storage_state={
                        "cookies": [{"name": "login", "value": "x", "domain": "127.0.0.1", "path": "/",
                                     "expires": -1, "httpOnly": False, "secure": False, "sameSite": "Lax"}],
                        "origins": [],
                    },
                    tab_urls=[f"{base}/page.html"],
                )  # fmt: skip

                async def restore() -> None:
                    await pool.acquire(f"restore-{next(keys)}", saved)

                report("restore from a save (cookies + 1 tab loaded)", await timed(runs // 2, restore, warm_refilled))
    finally:
        await pool.stop(save_sessions=False)

    print(f"\nload average after the run: {os.getloadavg()[0]:.1f}")
    print("references measured on this machine kind earlier: cold launch+first page ~420 ms, new context ~13 ms,"
          " new page ~220 ms; target: warm acquire p50 < 10 ms")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    parser.add_argument("--first-launch", choices=["stand-in", "relaunch"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_launch:
        asyncio.run(_first_launch(args.first_launch))
        sys.exit(0)
    # A smoke run: one burst after the pool adapted is enough to see that it still runs.
    asyncio.run(main(3, bursts=2) if args.smoke else main(args.runs))
