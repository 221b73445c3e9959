"""What the benchmarks share: percentiles, and waiting for a websocket event."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q from 0 to 1); NaN for no samples."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def next_event(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 30
) -> tuple[float, dict[str, Any]]:
    """The next websocket event that matches, with the monotonic time it arrived."""
    deadline = time.monotonic() + wait_s
    while True:
        event = json.loads(await asyncio.wait_for(ws.recv(), timeout=deadline - time.monotonic()))
        if predicate(event):
            return time.monotonic(), event
