"""WebMCP through the whole stack, on Hive's own flight demo (served by Daphne at /demo/flights/):

- discovery: from POSTing a `navigate` action (from a page without tools) to the websocket client receiving the
  `tools.updated` event that lists the page's tools, beside the same action's own end (page loaded, screenshot
  taken, run recorded);
- a tool called by hand from the Tool Inspector's API: from POST /tools/call/ to the websocket seeing the run
  succeed, beside the step's own duration (the tool call plus the screenshot taken after it).

    .venv/bin/python bench/webmcp_stack.py [--runs 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from bench.stack import cookie_header, running_stack, signed_in_client  # noqa: E402
from bench.stats import next_event, percentile  # noqa: E402


def run_ended(run_id: int) -> Any:
    return lambda e: (
        e.get("type") == "run.updated"
        and e["run"]["id"] == run_id
        and e["run"]["status"]
        in (
            "succeeded",
            "failed",
        )
    )


async def measure(base_url: str, runs: int) -> tuple[list[float], list[float], list[float], list[float]]:
    client, headers = signed_in_client(base_url, "bench")
    conversation = client.post("/api/conversations/", json={}, headers=headers).json()["id"]
    url = base_url.replace("http://", "ws://") + f"/ws/conversations/{conversation}/"
    discovery: list[float] = []
    loads: list[float] = []
    totals: list[float] = []
    steps: list[float] = []
    async with websockets.connect(url, additional_headers={"Cookie": cookie_header(client), "Origin": base_url}) as ws:

        async def navigate(target: str) -> tuple[int, float]:
            started = time.monotonic()
            run = await asyncio.to_thread(
                client.post,
                f"/api/conversations/{conversation}/actions/",
                json={"action": "navigate", "arguments": {"url": target}},
                headers=headers,
            )
            return run.json()["id"], started

        async def until(wanted: dict[str, Callable[[dict[str, Any]], bool]]) -> dict[str, float]:
            """When each wanted event arrived (in whatever order they come)."""
            seen: dict[str, float] = {}
            while len(seen) < len(wanted):
                at, event = await next_event(ws, lambda e: True)
                for name, matches in wanted.items():
                    if matches(event):
                        seen.setdefault(name, at)
            return seen

        def tools_listed(e: dict[str, Any]) -> bool:
            return e.get("type") == "tools.updated" and any(t["name"] == "listFlights" for t in e["tools"])

        def tools_gone(e: dict[str, Any]) -> bool:
            return e.get("type") == "tools.updated" and not e["tools"]

        for n in range(runs + 1):
            # The announcement is of a change: each visit comes from the demo's index, a page without tools (after
            # the first visit, leaving the flights page is announced too).
            run_id, _ = await navigate(f"{base_url}/demo/?visit={n}")
            await until({"run": run_ended(run_id), **({"gone": tools_gone} if n else {})})
            run_id, started = await navigate(f"{base_url}/demo/flights/?visit={n}")
            seen = await until({"run": run_ended(run_id), "tools": tools_listed})
            if n:  # the first visit warms the session up
                discovery.append((seen["tools"] - started) * 1000)
                loads.append((seen["run"] - started) * 1000)
        for _ in range(runs):
            started = time.monotonic()
            call = await asyncio.to_thread(
                client.post,
                f"/api/conversations/{conversation}/tools/call/",
                json={"name": "listFlights", "arguments": {}},
                headers=headers,
            )
            run_id = call.json()["id"]
            ended, event = await next_event(ws, run_ended(run_id))
            assert event["run"]["status"] == "succeeded", event
            totals.append((ended - started) * 1000)
            detail = (await asyncio.to_thread(client.get, f"/api/runs/{run_id}/")).json()
            steps.append(float(detail["steps"][0]["duration_ms"] or 0))
    return discovery, loads, totals, steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.runs = 2
    with running_stack() as stack:
        discovery, loads, totals, steps = asyncio.run(measure(stack.base_url, args.runs))
    print(f"{args.runs} page loads of /demo/flights/, {args.runs} calls of listFlights (read-only, instant):")
    print(
        f"  POST navigate → tools.updated (websocket)    p50 {percentile(discovery, 0.5):6.1f} ms  p95 {percentile(discovery, 0.95):6.1f} ms"
    )
    print(
        f"  POST navigate → navigate run succeeded       p50 {percentile(loads, 0.5):6.1f} ms  p95 {percentile(loads, 0.95):6.1f} ms"
    )
    print(
        f"  POST /tools/call/ → run succeeded (websocket) p50 {percentile(totals, 0.5):6.1f} ms  p95 {percentile(totals, 0.95):6.1f} ms"
    )
    print(
        f"  of which the step (call + screenshot)        p50 {percentile(steps, 0.5):6.1f} ms  p95 {percentile(steps, 0.95):6.1f} ms"
    )
    overhead = [t - s for t, s in zip(totals, steps, strict=True)]
    print(
        f"  stack overhead beyond the step               p50 {percentile(overhead, 0.5):6.1f} ms  mean {statistics.mean(overhead):6.1f} ms"
    )


if __name__ == "__main__":
    main()
