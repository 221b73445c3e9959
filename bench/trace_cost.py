"""CPU and bytes a Playwright trace adds per step: the same runs untraced, traced and discarded (every run whose
conversation does not keep traces, so that a failure has one), and traced and kept (written, then scrubbed of
secrets), in one run.

Run: .venv/bin/python bench/trace_cost.py [--rounds 8] [--steps 10] [--smoke]

One browser pool (the worker's Chromium, flags and viewport) with three sessions, one per mode; each round runs one
run of `--steps` steps in each session, the modes' order turning from round to round so all see the same machine
load. A step is what a form run does: navigate to a form page, type into a field, click, each followed by the JPEG
screenshot Hive keeps of a step. CPU is read from /proc for this process's whole tree (Python, Playwright's driver,
Chromium and its children) before and after each run, the second reading once the tree has gone quiet.

`run_cost` is the measurement for one run in one mode: other benchmarks (a recording's cost beside a trace's) call it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

import bench.stats  # noqa: E402
from bench.stats import wait_quiet  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.session import Session  # noqa: E402
from browser_pool.tracing import scrub_trace  # noqa: E402
from tests.support.procs import process_tree  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

Mode = Literal["off", "discard", "keep"]
MODES: tuple[Mode, ...] = ("off", "discard", "keep")
SECRET = "a typed secret value"

FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Form {n}</title></head><body>
<h1>Order {n}</h1>
{paragraphs}
<form><label>Name <input id="name"></label> <label>Password <input id="pw" type="password"></label>
<button type="button" id="go" onclick="document.getElementById('out').textContent = 'Sent ' + Date.now()">Send</button>
</form><p id="out"></p></body></html>"""


@dataclass(frozen=True)
class RunCost:
    mode: Mode
    steps: int
    cpu_s: float  # the whole tree's, the trace's writing and scrubbing included
    trace_bytes: int  # of the kept trace.zip; 0 otherwise


def _pages(folder: Path) -> None:
    paragraphs = "\n".join(f"<p>Paragraph {i} of a page a run reads before it acts.</p>" for i in range(40))
    for n in range(2):
        (folder / f"form{n}.html").write_text(FORM.format(n=n, paragraphs=paragraphs))


async def _quiet(roots: dict[str, int]) -> float:
    """The tree's CPU once it has gone quiet (work a run leaves behind counts)."""
    return sum((await asyncio.to_thread(wait_quiet, roots)).values())


async def _steps(session: Session, base: str, steps: int) -> None:
    page = session.active_page
    for i in range(steps):
        kind = i % 3
        if kind == 0:
            await page.goto(f"{base}/form{(i // 3) % 2}.html")
        elif kind == 1:
            await page.fill("#name", f"{SECRET} {i}")
            await page.fill("#pw", SECRET)
        else:
            await page.click("#go")
        await page.screenshot(type="jpeg", quality=60)


async def run_cost(session: Session, base: str, steps: int, mode: Mode, roots: dict[str, int]) -> RunCost:
    """One run of `steps` steps in `session`, traced as `mode` says; its CPU and its kept trace's size."""
    before = await _quiet(roots)
    size = 0
    if mode != "off":
        await session.tracing.begin(f"bench {mode}")
    await _steps(session, base, steps)
    if mode == "discard":
        await session.tracing.end(None)
    elif mode == "keep":
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "trace.zip"
            await session.tracing.end(path)
            await asyncio.to_thread(scrub_trace, path, lambda text: text.replace(SECRET, "••••••••"))
            size = path.stat().st_size
    return RunCost(mode, steps, await _quiet(roots) - before, size)


def _roots(pool: BrowserPool) -> dict[str, int]:
    roots = {"bench": os.getpid()}
    if pool.browser_pid is not None and pool.browser_pid not in process_tree(os.getpid()):
        roots["chromium"] = pool.browser_pid  # launched as another user: not this process's child
    return roots


async def main(rounds: int, steps: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _pages(Path(folder))
        with serve_directory(Path(folder)) as base:
            pool = BrowserPool(BrowserConfig(warm_contexts=0))
            await pool.start()
            try:
                sessions = {mode: await pool.acquire(f"trace-{mode}") for mode in MODES}
                roots = _roots(pool)
                for session in sessions.values():  # warm: the first run of a page pays for its cache
                    await _steps(session, base, 3)
                costs: dict[Mode, list[RunCost]] = {mode: [] for mode in MODES}
                started = time.monotonic()
                for n in range(rounds):
                    order = MODES[n % 3 :] + MODES[: n % 3]
                    for mode in order:
                        costs[mode].append(await run_cost(sessions[mode], base, steps, mode, roots))
                _report(costs, steps, time.monotonic() - started)
            finally:
                await pool.stop(save_sessions=False)


def _report(costs: dict[Mode, list[RunCost]], steps: int, seconds: float) -> None:
    per_step = {mode: statistics.median(c.cpu_s for c in runs) / steps * 1000 for mode, runs in costs.items()}
    reference = per_step["off"]
    print(f"{len(costs['off'])} rounds of {steps} steps per mode, {seconds:.0f} s; CPU per step (median run):")
    for mode in MODES:
        extra = (per_step[mode] / reference - 1) * 100 if reference else 0.0
        line = f"  {mode:8s} {per_step[mode]:6.1f} ms/step  ({extra:+5.1f} % against untraced)"
        if mode == "keep":
            kept = statistics.median(c.trace_bytes for c in costs[mode]) / steps / 1024
            line += f"  trace {kept:.0f} KiB/step"
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--smoke", action="store_true", help="one round of three steps")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.steps = 1, 3
        bench.stats.QUIET_MAX_S = 0.0  # a smoke run measures nothing: no waiting for the machine to go quiet
    asyncio.run(main(args.rounds, args.steps))
