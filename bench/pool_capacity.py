"""Memory per live session (PSS) and how many sessions one worker holds while ten of them still answer an
observation within 1 s.

Each session loads a real article page (ungzipped at run time from the shared article-extraction data set and served
from 127.0.0.1). Sessions grow in steps; after each step the PSS of every Chromium process is summed from
/proc/<pid>/smaps_rollup, and ten random sessions are observed at once (the agent's per-step observation,
`browser_pool.observe.observe`, when that module is importable; otherwise title + a small DOM summary).

Run: .venv/bin/python bench/pool_capacity.py [--max-sessions 120] [--step 10] [--article N]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from tests.support.procs import process_tree, pss_kib  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

ARTICLES = Path("/work/shared/data/article-extraction-dev/html")
OBSERVATION_LIMIT_S = 1.0
MIN_AVAILABLE_MIB = 2048

_SMALL_SUMMARY_JS = """() => ({
  title: document.title,
  links: document.links.length,
  buttons: document.querySelectorAll('button, [role=button]').length,
  inputs: document.querySelectorAll('input, textarea, select').length,
  text: (document.body ? document.body.innerText : '').slice(0, 500),
})"""


def pick_observer() -> tuple[str, Callable[[Page], Awaitable[object]]]:
    try:
        from browser_pool.observe import observe
    except ImportError:

        async def small_summary(page: Page) -> object:
            return await page.evaluate(_SMALL_SUMMARY_JS)

        return "title + small DOM summary (page.evaluate)", small_summary
    return "browser_pool.observe.observe (summary + visible elements)", observe


def mem_available_mib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
    return 0


def browser_pss_mib(pool: BrowserPool) -> tuple[float, int]:
    assert pool.browser_pid is not None
    pids = process_tree(pool.browser_pid)
    return sum(pss_kib(pid) for pid in pids) / 1024, len(pids)


def prepare_article(index: int | None, into: Path) -> Path:
    files = sorted(ARTICLES.glob("*.html.gz"), key=lambda f: f.stat().st_size)
    chosen = files[len(files) // 2 if index is None else index]  # the median-sized article unless told
    target = into / "article.html"
    target.write_bytes(gzip.decompress(chosen.read_bytes()))
    print(f"article: {chosen.name} ({target.stat().st_size / 1024:.0f} KiB of HTML; its remote assets fail fast, "
          "as on a worker without internet)")  # fmt: skip
    return target


async def main(max_sessions: int, step: int, article_index: int | None) -> None:
    observer_name, observe = pick_observer()
    print(f"observation: {observer_name}; limit p95 <= {OBSERVATION_LIMIT_S} s over 10 concurrent sessions")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as root:
        prepare_article(article_index, Path(root))
        with serve_directory(Path(root)) as base:
            url = f"{base}/article.html"
            pool = BrowserPool(BrowserConfig(max_sessions=max_sessions + step, warm_contexts=2, idle_timeout_s=3600))
            await pool.start()
            try:
                while pool.load.warm_contexts < 2:  # noqa: ASYNC110 - waiting for the background refill
                    await asyncio.sleep(0.05)
                await asyncio.sleep(1)
                baseline, processes = browser_pss_mib(pool)
                print(f"baseline (browser + 2 warm blank contexts): PSS {baseline:.0f} MiB in {processes} processes, "
                      f"MemAvailable {mem_available_mib()} MiB, load average {os.getloadavg()[0]:.1f} on "
                      f"{os.cpu_count()} cores\n")  # fmt: skip
                print(f"{'sessions':>8} {'PSS MiB':>9} {'MiB/session':>12} {'procs':>6} {'open s':>7} "
                      f"{'obs p50 ms':>11} {'obs p95 ms':>11} {'obs max ms':>11} {'MemAvail MiB':>13}")  # fmt: skip
                live: list[str] = []
                while len(live) < max_sessions:
                    started = time.perf_counter()
                    for _ in range(step):
                        key = f"s{len(live)}"
                        session = await pool.acquire(key)
                        await session.active_page.goto(url, wait_until="load")
                        await pool.release(session)
                        live.append(key)
                    opened_s = time.perf_counter() - started
                    await asyncio.sleep(1)  # let pages settle before measuring
                    total, processes = browser_pss_mib(pool)
                    per_session = (total - baseline) / len(live)

                    async def timed_observation(key: str) -> float:
                        session = pool.get(key)
                        assert session is not None
                        began = time.perf_counter()
                        await observe(session.active_page)
                        return time.perf_counter() - began

                    latencies = await asyncio.gather(
                        *(timed_observation(k) for k in rng.sample(live, min(10, len(live))))
                    )
                    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
                    print(f"{len(live):>8} {total:>9.0f} {per_session:>12.1f} {processes:>6} {opened_s:>7.1f} "
                          f"{p50 * 1000:>11.0f} {p95 * 1000:>11.0f} {max(latencies) * 1000:>11.0f} "
                          f"{mem_available_mib():>13}")  # fmt: skip
                    if p95 > OBSERVATION_LIMIT_S:
                        print(f"stopping: observation p95 above {OBSERVATION_LIMIT_S} s")
                        break
                    if mem_available_mib() < MIN_AVAILABLE_MIB:
                        print(f"stopping: less than {MIN_AVAILABLE_MIB} MiB of memory left")
                        break
            finally:
                await pool.stop(save_sessions=False)
    print(f"load average after the run: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-sessions", type=int, default=120)
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--article", type=int, default=None, help="index into the articles sorted by size")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.max_sessions, args.step = 2, 1
    asyncio.run(main(args.max_sessions, args.step, args.article))
