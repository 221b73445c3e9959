"""What the benchmarks share: percentiles, waiting for a websocket event, CPU time of process trees."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.procs import process_tree  # noqa: E402


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q from 0 to 1); NaN for no samples."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def next_event(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 120
) -> tuple[float, dict[str, Any]]:
    """The next websocket event that matches, with the monotonic time it arrived. The wait is long: it only tells a
    hang from a busy machine (smoke runs share the cores with each other and the rest of the suite)."""
    deadline = time.monotonic() + wait_s
    while True:
        event = json.loads(await asyncio.wait_for(ws.recv(), timeout=deadline - time.monotonic()))
        if predicate(event):
            return time.monotonic(), event


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_and_name(pid: int) -> tuple[float, str]:
    """CPU seconds of one process (user + system, with its children that have ended and been waited for) and its
    command name; (0, "") when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0, ""
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    fields = stat[stat.rfind(")") + 2 :].split()
    # Fields 14-17 of proc(5) (utime, stime, cutime, cstime), counted from the state field (3) here.
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS, name


def tree_cpu_s(roots: dict[str, int], *, chromium_types: bool = False) -> dict[str, float]:
    """CPU seconds so far of each root's whole process tree, by role and command name ("worker0/chromium", …);
    with `chromium_types`, Chromium's processes by their part ("worker0/chromium:renderer", ":gpu-process", …).

    An ended child's time moves to its parent's counters when the parent waits for it, so the sums keep growing
    as renderers come and go: the difference of two readings is the CPU spent between them."""
    out: dict[str, float] = {}
    for role, root in roots.items():
        for pid in process_tree(root):
            seconds, name = _cpu_and_name(pid)
            if name:
                kind = _kind(name)
                if chromium_types and kind == "chromium":
                    kind += ":" + _chromium_type(pid)
                key = f"{role}/{kind}"
                out[key] = out.get(key, 0.0) + seconds
    return out


def _kind(name: str) -> str:
    if name.startswith(("chrom", "headless_shell")):
        return "chromium"
    if name.startswith(("python", "celery", "daphne")):
        return "python"
    return name.split("-")[0].split(":")[0].split(" ")[0]  # node-MainThread, redis-server: node, redis


def _chromium_type(pid: int) -> str:
    """The part of Chromium a process plays, from its `--type=` switch (none: the browser process itself)."""
    try:
        # Chromium rewrites its command line into one string with spaces: split on both.
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
    except OSError:
        return "gone"
    for argument in arguments:
        if argument.startswith(b"--type="):
            return argument[len(b"--type=") :].decode(errors="replace")
    return "browser"


def cpu_delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {key: after[key] - before.get(key, 0.0) for key in after}


# A side has gone quiet when it spends less than this share of one core over a sampling interval.
QUIET_SHARE = 0.05
QUIET_INTERVAL_S = 0.15
QUIET_MAX_S = 3.0


def wait_quiet(roots: dict[str, int]) -> dict[str, float]:
    """Readings until a sampling interval sees (almost) no CPU; returns the last one."""
    deadline = time.monotonic() + QUIET_MAX_S
    last = tree_cpu_s(roots, chromium_types=True)
    while time.monotonic() < deadline:
        time.sleep(QUIET_INTERVAL_S)
        now = tree_cpu_s(roots, chromium_types=True)
        if sum(now.values()) - sum(last.values()) < QUIET_SHARE * QUIET_INTERVAL_S:
            return now
        last = now
    return last
