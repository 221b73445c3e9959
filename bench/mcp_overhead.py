"""What the MCP endpoint adds to a browser action, against the same action through the REST API, in one run.

One user, one worker. The REST reference is what a script does: POST .../actions/ with its token and wait for the
run's end on the conversation's websocket (token auth). The MCP side is the official SDK's client calling the same
action on `/mcp` (the current protocol: one POST per call) and getting its result. Calls alternate, so both see
the same machine; the added cost is the difference of the medians.

    .venv/bin/python bench/mcp_overhead.py [--calls 40] [--action navigate|scroll]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
import httpx2  # noqa: E402
import websockets  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from bench.stack import Stack, running_stack, signed_in_client  # noqa: E402
from bench.stats import percentile  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "integration" / "pages"
TERMINAL = ("succeeded", "failed", "aborted")


def _token(stack: Stack) -> str:
    client, headers = signed_in_client(stack.base_url, "bench-mcp")
    try:
        response = client.post("/api/auth/token/", headers=headers)
        response.raise_for_status()
        return str(response.json()["token"])
    finally:
        client.close()


def _arguments(action: str, pages_url: str, n: int) -> dict[str, Any]:
    if action == "navigate":
        return {"url": f"{pages_url}/article.html?n={n}"}
    return {"direction": "down" if n % 2 else "up", "amount": 300}


class RestScript:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.headers = {"Authorization": f"Bearer {token}"}
        self.client = httpx.AsyncClient(base_url=base_url, headers=self.headers, timeout=120)
        self.conversation = 0
        self.ws: Any = None
        self.ended: dict[int, asyncio.Future[None]] = {}

    async def open(self) -> None:
        self.conversation = int((await self.client.post("/api/conversations/", json={})).json()["id"])
        url = self.base_url.replace("http://", "ws://") + f"/ws/conversations/{self.conversation}/"
        self.ws = await websockets.connect(url, additional_headers=self.headers, max_size=None)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            event = json.loads(raw)
            if event.get("type") == "run.updated" and event["run"]["status"] in TERMINAL:
                self._future(int(event["run"]["id"])).set_result(None)

    def _future(self, run_id: int) -> asyncio.Future[None]:
        return self.ended.setdefault(run_id, asyncio.get_running_loop().create_future())

    async def call(self, action: str, arguments: dict[str, Any]) -> float:
        started = time.perf_counter()
        response = await self.client.post(
            f"/api/conversations/{self.conversation}/actions/", json={"action": action, "arguments": arguments}
        )
        response.raise_for_status()
        await asyncio.wait_for(self._future(int(response.json()["id"])), 60)
        return (time.perf_counter() - started) * 1000

    async def close(self) -> None:
        await self.ws.close()
        await self.client.aclose()


async def measure(stack: Stack, pages_url: str, action: str, calls: int) -> tuple[list[float], list[float]]:
    token = _token(stack)
    rest = RestScript(stack.base_url, token)
    await rest.open()
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    rest_ms: list[float] = []
    mcp_ms: list[float] = []
    try:
        async with http, Client(streamable_http_client(f"{stack.base_url}/mcp", http_client=http)) as client:  # type: ignore[arg-type]
            # Warm both paths: the conversations' browser sessions, the MCP session manager, connections.
            for n in range(2):
                await rest.call("navigate", _arguments("navigate", pages_url, n))
                warm = await client.call_tool("navigate", _arguments("navigate", pages_url, n))
                assert not warm.is_error, warm.content
            for n in range(calls):
                rest_ms.append(await rest.call(action, _arguments(action, pages_url, n)))
                started = time.perf_counter()
                result = await client.call_tool(action, _arguments(action, pages_url, n))
                mcp_ms.append((time.perf_counter() - started) * 1000)
                assert not result.is_error, result.content
    finally:
        await rest.close()
    return rest_ms, mcp_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--action", default="navigate", choices=["navigate", "scroll"])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.calls = 3
    env = {"HIVE_QUOTA_RUNS_PER_HOUR": "100000"}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.calls} {args.action} calls each way")
    with serve_directory(PAGES) as pages_url, running_stack(workers=1, extra_env=env) as stack:
        rest_ms, mcp_ms = asyncio.run(measure(stack, pages_url, args.action, args.calls))
    for label, figures in (("REST + websocket (reference)", rest_ms), ("MCP tools/call", mcp_ms)):
        print(f"{label:<30} p50 {percentile(figures, 0.5):7.1f} ms   p95 {percentile(figures, 0.95):7.1f} ms")
    added = percentile(mcp_ms, 0.5) - percentile(rest_ms, 0.5)
    print(f"{'added by MCP at p50':<30} {added:+7.1f} ms (goal: under 20 ms)")


if __name__ == "__main__":
    main()
