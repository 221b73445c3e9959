"""What recording a run costs: CPU and bytes per step of the ways of recording, beside the same steps unrecorded,
and of a traced run with and without its recording, in one run.

Run: .venv/bin/python bench/recording.py [--rounds 3] [--steps 6] [--think 3.0] [--ways none,frames]
     [--settle 1.5] [--record-size 800x500] [--record-quality 50] [--smoke]
     .venv/bin/python bench/recording.py --stack [--rounds 4] [--think 2.0] [--traced]

Ways, each in its own browser context of one Chromium (the pool's, with Hive's flags):
- none: the steps alone;
- frames: screencast frames kept at 1 fps, only when the page changed, around steps only (from a step's start to
  `--settle` seconds after its end), at the recording's own size and quality (`--record-size`, `--record-quality`):
  `browser_pool.recording` as a run uses it;
- frames-all: the same frames, recorded all the time (between steps too, while the model thinks);
- rrweb: rrweb's recorder injected into every page, its events drained after each step (what a replay player needs);
- trace: a Playwright trace with screenshots and DOM snapshots, one chunk per batch written to a zip;
- traced: the same trace, its chunk discarded (a run that succeeded), no recording: the reference of the next;
- traced+frames: a traced run with its recording, as the worker runs an agent's turn by default (the recording
  shares the trace's screencast).

A step is what a run does per action: an action (navigate between two pages, click a button that changes a line of
text, type into a field, in turn, on the pages of bench/cpu.py), the JPEG step picture Hive keeps, then `--think`
seconds of nothing, the time a model takes to answer before the next step (recording costs follow the clock, not the
steps). Batches of each way take turns, so all see the same machine load. CPU is read from /proc for this process
(Python and its threads), Playwright's driver and Chromium with all its children, after each batch has gone quiet.
rrweb is read from frontend/node_modules (it is in the dashboard's dev dependencies); without it that row is skipped.

`--stack`: the same comparison on the whole service, as a run costs it. Two stacks side by side (Redis, SQLite, a
worker with its Chromium, Daphne), one recording its runs and one not, traces off on both (`--traced`: on on both),
each running the agent's sign-up task of bench/workflows.py (six tool steps) with the scripted model answering after
`--think` seconds; the stacks take turns run by run, the order swapped every round. CPU is every process of each
stack, read from /proc once it has gone quiet; the scripted model and this script's client are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

import bench.stats  # noqa: E402
import bench.workflows  # noqa: E402
from bench.cpu import CLICK_TARGET, TYPE_TARGET, write_pages  # noqa: E402
from bench.stack import Stack, running_stack  # noqa: E402
from bench.stats import cpu_delta, wait_quiet  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.recording import FrameSpec, Recorder  # noqa: E402
from browser_pool.screencast import step_picture  # noqa: E402
from browser_pool.session import Session  # noqa: E402
from tests.support.llm_server import ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RRWEB = ROOT / "frontend/node_modules/rrweb/dist/rrweb.umd.min.cjs"
# Started once a web page has loaded: rrweb recording the blank page a new tab opens on hangs that tab.
RRWEB_START = (
    "window.__rr = []; if (location.protocol.startsWith('http')) window.addEventListener('load',"
    " () => rrweb.record({ emit(event) { window.__rr.push(event); } }));"
)
RRWEB_DRAIN = "() => { const events = window.__rr || []; window.__rr = []; return JSON.stringify(events); }"
WAYS = ("none", "frames", "frames-all", "rrweb", "trace", "traced", "traced+frames")
PAGE_SETS = ("form", "article")


@dataclass
class Tally:
    cpu_s: float = 0.0
    bytes: int = 0
    steps: int = 0
    wall_s: float = 0.0
    by_process: dict[str, float] = field(default_factory=dict)  # CPU seconds by process kind (python, node, chromium)

    def add(self, other: Tally) -> None:
        self.cpu_s += other.cpu_s
        self.bytes += other.bytes
        self.steps += other.steps
        self.wall_s += other.wall_s
        for kind, seconds in other.by_process.items():
            self.by_process[kind] = self.by_process.get(kind, 0.0) + seconds

    def where(self) -> str:
        return ", ".join(f"{kind} {s / self.steps * 1000:.1f}" for kind, s in sorted(self.by_process.items()))

    def row(self, way: str, base: Tally | None) -> str:
        per_step_ms = self.cpu_s / self.steps * 1000
        more = f"{(per_step_ms / (base.cpu_s / base.steps * 1000) - 1) * 100:+6.1f} %" if base else "       —"
        per_min = self.bytes / (self.wall_s / 60) / 1e6 if self.wall_s else 0.0
        return (f"{way:<10} {per_step_ms:9.1f} {more:>10} {self.bytes / self.steps / 1e3:10.1f} "
                f"{per_min:10.2f}")  # fmt: skip


class Way:
    """One way of recording on its own session: `begin` before a batch, `after_step`, `end` returns the bytes."""

    def __init__(self, name: str, session: Session, folder: Path, settle_s: float, spec: FrameSpec) -> None:
        self.name, self.session, self.folder, self.settle_s, self.spec = name, session, folder, settle_s, spec
        self.recorder: Recorder | None = None
        self.drained = 0
        self.chunks = 0
        self.delivered = 0  # frames the recorder was sent, over all batches

    async def setup(self) -> None:
        if self.name == "rrweb":
            await self.session.context.add_init_script(script=RRWEB.read_text() + "\n" + RRWEB_START)
        elif self.name.startswith("trace"):
            await self.session.context.tracing.start(screenshots=True, snapshots=True)

    async def begin(self) -> None:
        self.drained = 0
        if self.name.endswith("frames") or self.name == "frames-all":
            settle_s = None if self.name == "frames-all" else self.settle_s
            self.recorder = Recorder(self.session, fps=1.0, settle_s=settle_s, spec=self.spec)
            await self.recorder.start()
        if self.name.startswith("trace"):  # after the recorder, as the worker does
            await self.session.context.tracing.start_chunk()

    def step_starts(self) -> None:
        if self.recorder is not None:
            self.recorder.wake()

    async def after_step(self) -> None:
        if self.recorder is not None:
            self.recorder.wake()
        if self.name == "rrweb":
            self.drained += len(await self.session.active_page.evaluate(RRWEB_DRAIN))

    async def end(self) -> int:
        if self.name.startswith("traced"):
            await self.session.context.tracing.stop_chunk()  # discarded
        if self.recorder is not None:
            recording = await self.recorder.stop()
            self.delivered += self.recorder.delivered
            self.recorder = None
            return recording.bytes
        if self.name == "trace":
            self.chunks += 1
            path = self.folder / f"trace-{self.chunks}.zip"
            await self.session.context.tracing.stop_chunk(path=path)
            return path.stat().st_size
        return self.drained


def steps(site: str, count: int, offset: int) -> list[Callable[[Session], Awaitable[None]]]:
    """`count` steps cycling navigate, type, click, starting with a navigation, over the page sets."""
    return [_step(site, i, offset + i) for i in range(count)]


def _step(site: str, i: int, n: int) -> Callable[[Session], Awaitable[None]]:
    page_set = PAGE_SETS[n // 3 % len(PAGE_SETS)]
    if i % 3 == 0:
        url = f"{site}/{page_set}{1 + n // 6 % 2}.html"
        return lambda s: _goto(s, url)
    if i % 3 == 1:
        return lambda s: s.active_page.fill(TYPE_TARGET, f"query number {n}", timeout=5_000)
    return lambda s: s.active_page.click(CLICK_TARGET, timeout=5_000)


async def _goto(session: Session, url: str) -> None:
    await session.active_page.goto(url, wait_until="load")


async def batch(way: Way, site: str, count: int, offset: int, think_s: float, roots: dict[str, int]) -> Tally:
    before = await asyncio.to_thread(wait_quiet, roots)
    started = time.monotonic()
    await way.begin()
    for step in steps(site, count, offset):
        way.step_starts()
        await step(way.session)
        await step_picture(way.session.active_page)
        await way.after_step()
        await asyncio.sleep(think_s)
    recorded = await way.end()
    wall = time.monotonic() - started
    await way.session.active_page.goto("about:blank")  # an idle context costs nothing while the others run
    after = await asyncio.to_thread(wait_quiet, roots)
    spent = cpu_delta(after, before)
    by_process: dict[str, float] = {}
    for key, seconds in spent.items():
        kind = key.split("/", 1)[1]
        by_process[kind] = by_process.get(kind, 0.0) + seconds
    return Tally(cpu_s=sum(spent.values()), bytes=recorded, steps=count, wall_s=wall, by_process=by_process)


async def main(
    rounds: int,
    count: int,
    think_s: float,
    only: list[str],
    settle_s: float,
    spec: FrameSpec,
) -> None:
    ways = [w for w in only if w != "rrweb" or RRWEB.exists()]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {rounds} rounds of {count} steps per "
          f"way, {think_s:.2f} s between steps; pages of bench/cpu.py ({', '.join(PAGE_SETS)}); recordings "
          f"until {settle_s} s after a step, {spec.max_width}x{spec.max_height} quality {spec.quality}")  # fmt: skip
    if "rrweb" in only and "rrweb" not in ways:
        print(f"rrweb skipped: {RRWEB.relative_to(ROOT)} is missing (cd frontend && npm install)")
    speed_before = machine_speed()
    tallies = {w: Tally() for w in ways}
    per_round: dict[str, list[float]] = {w: [] for w in ways}  # CPU seconds per step, round by round
    with tempfile.TemporaryDirectory() as folder, serve_directory(_pages(Path(folder))) as site:
        pool = BrowserPool(BrowserConfig(warm_contexts=0))
        await pool.start()
        try:
            assert pool.browser_pid is not None
            roots = {"bench": os.getpid()}
            sessions = {w: Way(w, await pool.acquire(f"bench-{w}"), Path(folder), settle_s, spec) for w in ways}
            for way in sessions.values():
                await way.setup()
                await batch(way, site, 3, 0, 0.0, roots)  # warm: caches, fonts, the first compositor frames
                way.delivered = 0
            for r in range(rounds):
                for w in ways:
                    one = await batch(sessions[w], site, count, r * count, think_s, roots)
                    tallies[w].add(one)
                    per_round[w].append(one.cpu_s / one.steps)
        finally:
            await pool.stop(save_sessions=False)
    print(f"\n{'way':<10} {'CPU ms/step':>9} {'vs none':>10} {'kB/step':>10} {'MB/min':>10}")
    for w in ways:
        print(tallies[w].row(w, tallies["none"] if w != "none" else None))
    print("\nround by round (batches of one round ran back to back, so they saw the same machine):")
    pairs = [(w, "none") for w in ways if w != "none"]
    if "traced" in ways and "traced+frames" in ways:
        pairs.append(("traced+frames", "traced"))
    for w, ref in pairs:
        ratios = [a / b - 1 for a, b in zip(per_round[w], per_round[ref], strict=True)]
        print(f"{w} vs {ref}: median {statistics.median(ratios) * 100:+.1f} %, rounds from "
              f"{min(ratios) * 100:+.1f} to {max(ratios) * 100:+.1f} %")  # fmt: skip
    print("\nwhere the CPU went, ms per step:")
    for w in ways:
        sent = sessions[w].delivered / tallies[w].steps if sessions[w].delivered else 0.0
        print(f"{w:<14} {tallies[w].where()}" + (f"; frames sent to the recorder {sent:.1f}" if sent else ""))
    if "traced" in tallies and "traced+frames" in tallies:
        print("\nthe recording of a traced run, beside the same run traced:")
        print(tallies["traced+frames"].row("traced+frames", tallies["traced"]))
    print(json.dumps({w: {"cpu_ms_per_step": t.cpu_s / t.steps * 1000, "bytes_per_step": t.bytes / t.steps}
                      for w, t in tallies.items()}))  # fmt: skip
    print(f"load average after the run: {os.getloadavg()[0]:.1f}; a fixed loop took {speed_before * 1000:.0f} ms of "
          f"CPU before the run, {machine_speed() * 1000:.0f} ms after")  # fmt: skip


# The sign-up task's model calls: six tool calls and the answer.
MODEL_CALLS = 7


def stack_compare(rounds: int, think_s: float, traced: bool, smoke: bool = False) -> None:
    """A recorded and an unrecorded stack, the agent's sign-up run on each in turn: CPU of the whole stack per step."""
    bench.workflows.MODEL_LATENCY_S = think_s
    llm = ScriptedLLM()
    llm.start()
    llm.script(bench.workflows._agent)
    common = {
        "HIVE_LLM_BASE_URL": llm.base_url, "HIVE_LLM_MODEL": "scripted", "HIVE_QUOTA_RUNS_PER_HOUR": "100000",
        "HIVE_TRACE_RUNS": "true" if traced else "false",
    }  # fmt: skip
    envs = {"recorded": common | {"HIVE_RECORDING_FPS": "1"}, "unrecorded": common | {"HIVE_RECORDING_FPS": "0"}}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {rounds} rounds, the agent's sign-up "
          f"task (bench/workflows.py), the model answering after {think_s:g} s; traces "
          f"{'on' if traced else 'off'} on both stacks")  # fmt: skip
    speed_before = machine_speed()
    spent: dict[str, list[float]] = {"recorded": [], "unrecorded": []}  # CPU seconds per step, run by run
    kept: list[float] = []  # recording bytes per step

    def measure(name: str, stack: Stack, hive: bench.workflows.Hive, url: str) -> None:
        cpu_s, run = _agent_run(stack, hive, llm, url, think_s)
        steps = len(run["steps"])
        spent[name].append(cpu_s / steps)
        if name == "recorded":
            kept.append(hive.client.get(f"/api/runs/{run['id']}/recording/").json()["bytes"] / steps)

    try:
        with tempfile.TemporaryDirectory() as folder, serve_directory(Path(folder)) as site:
            (Path(folder) / "signup.html").write_text(bench.workflows.page({}))
            url = f"{site}/signup.html"
            if smoke:
                # One stack at a time: the suite runs two smoke scripts at once on two cores.
                for name, env in envs.items():
                    with running_stack(extra_env=env) as stack:
                        measure(name, stack, bench.workflows.Hive(stack.base_url), url)
            else:
                with running_stack(extra_env=envs["recorded"]) as recorded, \
                        running_stack(extra_env=envs["unrecorded"]) as unrecorded:  # fmt: skip
                    stacks = {"recorded": (recorded, bench.workflows.Hive(recorded.base_url)),
                              "unrecorded": (unrecorded, bench.workflows.Hive(unrecorded.base_url))}  # fmt: skip
                    for stack, hive in stacks.values():
                        _agent_run(stack, hive, llm, url, think_s)  # warm: the browser context, caches, first frames
                    for r in range(rounds):
                        for name in ["recorded", "unrecorded"] if r % 2 == 0 else ["unrecorded", "recorded"]:
                            measure(name, *stacks[name], url)
    finally:
        llm.stop()
    with_ms, without_ms = (statistics.median(spent[n]) * 1000 for n in ("recorded", "unrecorded"))
    ratios = [a / b - 1 for a, b in zip(spent["recorded"], spent["unrecorded"], strict=True)]
    print(f"\n{'stack':<12} {'CPU ms/step':>11}   (medians of {len(ratios)} runs; six steps a run)")
    print(f"{'unrecorded':<12} {without_ms:11.1f}")
    print(f"{'recorded':<12} {with_ms:11.1f}   {(with_ms / without_ms - 1) * 100:+.1f} %, "
          f"{statistics.median(kept) / 1e3:.1f} kB kept per step")  # fmt: skip
    print(f"round by round: median {statistics.median(ratios) * 100:+.1f} %, from {min(ratios) * 100:+.1f} to "
          f"{max(ratios) * 100:+.1f} %")  # fmt: skip
    print(f"load average after the run: {os.getloadavg()[0]:.1f}; a fixed loop took {speed_before * 1000:.0f} ms of "
          f"CPU before the run, {machine_speed() * 1000:.0f} ms after")  # fmt: skip


def _agent_run(
    stack: Stack, hive: bench.workflows.Hive, llm: ScriptedLLM, url: str, think_s: float
) -> tuple[float, dict[str, Any]]:
    """One sign-up run by the agent: the CPU the stack spent on it (seconds) and the run as the API shows it. The run
    is asked for only once the model has given its last answer (asking costs the stack's web server too): the scripted
    model keeps a request when it comes and answers `think_s` later."""
    roots = stack.roots()
    before = wait_quiet(roots)
    calls = len(llm.requests)
    sent = hive.client.post(
        f"/api/conversations/{hive.conversation}/messages/", json={"content": f"Sign me up at {url}"},
        headers=hive.headers,
    )  # fmt: skip
    sent.raise_for_status()
    deadline = time.monotonic() + 120
    while len(llm.requests) < calls + MODEL_CALLS and time.monotonic() < deadline:
        time.sleep(0.05)  # this process's own wait for the scripted model, which the stack's figures leave out
    time.sleep(think_s)  # the last answer is on its way
    run = hive.until_done(int(sent.json()["run"]["id"]), poll_s=0.1)
    assert run["status"] == "succeeded", run
    return sum(cpu_delta(wait_quiet(roots), before).values()), run


def machine_speed() -> float:
    """CPU seconds a fixed loop takes: a busy host makes every process's CPU time longer, this one's too."""
    started = time.process_time()
    sum(range(10_000_000))
    return time.process_time() - started


def _pages(folder: Path) -> Path:
    root = folder / "site"
    root.mkdir()
    write_pages(root)
    return root


def _size(text: str) -> tuple[int, int]:
    """WIDTHxHEIGHT in pixels."""
    width, height = (int(n) for n in text.lower().split("x"))
    return width, height


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="batches per way")
    parser.add_argument("--steps", type=int, default=6, help="steps per batch")
    parser.add_argument("--think", type=float, default=3.0, help="seconds between steps (the model's answer)")
    parser.add_argument("--ways", default=",".join(WAYS), help="the ways to measure, comma-separated ('none' first)")
    parser.add_argument("--settle", type=float, default=1.5, help="seconds recorded after a step (the 'frames' way)")
    parser.add_argument(
        "--record-size", type=_size, default="800x500", help="the recording's largest frame (the server's default)"
    )
    parser.add_argument("--record-quality", type=int, default=50, help="the recording's JPEG quality (the server's)")
    parser.add_argument("--stack", action="store_true", help="the whole service, with and without recording")
    parser.add_argument("--traced", action="store_true", help="with --stack: traces on on both stacks")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.steps, args.think = 1, 3, 0.05
        bench.stats.QUIET_MAX_S = 0.0  # a smoke run measures nothing: no waiting for the machine to go quiet
    record_width, record_height = args.record_size
    record = FrameSpec(record_width, record_height, args.record_quality)
    if args.stack or args.smoke:
        stack_compare(args.rounds, args.think, args.traced, smoke=args.smoke)
    if not args.stack:
        asyncio.run(main(args.rounds, args.steps, args.think, args.ways.split(","), args.settle, record))
