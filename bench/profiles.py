"""Starting a browser session from a profile of 1, 10 and 100 origins vs a fresh context, and saving it back.

Each sample is what a worker does for a conversation bound to a profile: a pool acquire restoring the conversation's
tab with the profile's storage state (cookies, local storage on every origin) against the same acquire and tab with
an empty state; then the save back: the session's storage state with its IndexedDB, summarised per origin and
encrypted as the profile keeps it. The tab is on the profile's first origin, so every start from a profile includes
writing that origin's saved local storage into the page (checked after the timing); the other origins' items wait
for their first page (browser_pool/storage.py), which a start does not open.

Run: .venv/bin/python bench/profiles.py [--runs N]
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
from typing import Any

from cryptography.fernet import Fernet
from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
settings.configure(SECRET_KEY="bench-profiles", HIVE_ENCRYPTION_KEYS=[Fernet.generate_key().decode()])

from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.types import SavedSession  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402
from webapp.core.crypto import encrypt_document  # noqa: E402
from webapp.profiles.state import origins_of  # noqa: E402

COOKIES_PER_ORIGIN = 3
ITEMS_PER_ORIGIN = 2


def report(name: str, samples_s: list[float]) -> float:
    ms = [s * 1000 for s in samples_s]
    p50 = percentile(ms, 0.5)
    print(f"{name:<48} n={len(ms):<4} p50={p50:8.2f} ms  p95={percentile(ms, 0.95):8.2f} ms"
          f"  mean={statistics.fmean(ms):8.2f} ms")  # fmt: skip
    return p50


def profile_state(base: str, origins: int) -> dict[str, Any]:
    """A signed-in profile: the local site and `origins - 1` others, each with session cookies and local storage."""
    hosts = [base] + [f"https://site-{i}.example" for i in range(1, origins)]
    cookies = [
        {"name": f"c{j}", "value": f"{'v' * 40}{i}-{j}", "domain": host.split("//")[1].split(":")[0], "path": "/",
         "expires": -1, "httpOnly": j == 0, "secure": host.startswith("https"), "sameSite": "Lax"}
        for i, host in enumerate(hosts)
        for j in range(COOKIES_PER_ORIGIN)
    ]  # fmt: skip
    local = [{"origin": host, "localStorage": [{"name": f"k{j}", "value": "x" * 200} for j in range(ITEMS_PER_ORIGIN)]}
             for host in hosts]  # fmt: skip
    return {"cookies": cookies, "origins": local}


async def refilled(pool: BrowserPool, wanted: int) -> None:
    # Conversations open spaced out: the background refill has finished before the next one.
    while pool.load.warm_contexts < wanted:  # noqa: ASYNC110 - polling a counter is the point
        await asyncio.sleep(0.005)


async def start_and_save(pool: BrowserPool, key: str, saved: SavedSession, warm: int) -> tuple[float, float]:
    await refilled(pool, warm)
    started = time.perf_counter()
    session = await pool.acquire(key, saved)
    await session.active_page.evaluate("1 + 1")  # its tab is there and answering
    start_s = time.perf_counter() - started
    expected = ITEMS_PER_ORIGIN if saved.storage_state["origins"] else 0
    found = await session.active_page.evaluate("localStorage.length")
    assert found == expected, f"the tab's origin has {found} local items after the start, not {expected}"
    session.keep_indexed_db = True
    started = time.perf_counter()
    state = (await session.save()).storage_state
    origins_of(state)
    encrypt_document(state)
    save_s = time.perf_counter() - started
    await pool.release(session)
    await pool.close_session(key, save=False)
    return start_s, save_s


async def main(runs: int, sizes: list[int]) -> None:
    config = BrowserConfig(max_sessions=4, warm_contexts=2, idle_timeout_s=3600)
    print(f"Chromium {config.executable_path}, {runs} runs per figure, {COOKIES_PER_ORIGIN} cookies and "
          f"{ITEMS_PER_ORIGIN} local items per origin, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
          "cores\n")  # fmt: skip
    pool = BrowserPool(config)
    await pool.start()
    try:
        with tempfile.TemporaryDirectory() as root:
            (Path(root) / "page.html").write_text("<!doctype html><title>Members</title><p>Signed in.</p>")
            with serve_directory(Path(root)) as base:
                tab = [f"{base}/page.html"]
                fresh = SavedSession(storage_state={"cookies": [], "origins": []}, tab_urls=tab)
                await start_and_save(pool, "warm-up", fresh, config.warm_contexts)
                samples: dict[str, list[tuple[float, float]]] = {"fresh": []}
                for n in sizes:
                    samples[str(n)] = []
                for i in range(runs):  # interleaved, so a burst of load elsewhere hits every figure alike
                    samples["fresh"].append(await start_and_save(pool, f"fresh-{i}", fresh, config.warm_contexts))
                    for n in sizes:
                        saved = SavedSession(storage_state=profile_state(base, n), tab_urls=tab)
                        samples[str(n)].append(await start_and_save(pool, f"p{n}-{i}", saved, config.warm_contexts))
                reference = report("start: fresh context, 1 tab (reference)", [s for s, _ in samples["fresh"]])
                for n in sizes:
                    p50 = report(f"start: from a profile of {n} origin{'s' * (n > 1)}", [s for s, _ in samples[str(n)]])
                    print(f"{'':<48} {p50 - reference:+.2f} ms at p50 over the fresh context")
                    # Each run's profile start minus the same run's fresh one: less sensitive to load drifting.
                    paired = [(s - f) * 1000 for (s, _), (f, _) in zip(samples[str(n)], samples["fresh"], strict=True)]
                    print(f"{'':<48} {percentile(paired, 0.5):+.2f} ms median of the paired differences")
                report("save back: fresh context", [s for _, s in samples["fresh"]])
                for n in sizes:
                    report(f"save back: profile of {n} origin{'s' * (n > 1)}", [s for _, s in samples[str(n)]])
    finally:
        await pool.stop(save_sessions=False)
    print(f"\nload average after the run: {os.getloadavg()[0]:.1f}")
    print("goal: starting from a profile of 10 origins adds under 50 ms at p50 over the fresh context")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    asyncio.run(main(2 if args.smoke else args.runs, [1, 10] if args.smoke else [1, 10, 100]))
