"""Many users at once through the real stack: API → Celery → worker loop → browser → websocket.

Each user has a conversation and does, one after another, navigate actions by hand (POST .../actions/) and agent
turns (one navigate tool call and an answer, instant scripted model); every user's latency is from the POST to its
websocket seeing the run end. 1, 5 and 20 users against one worker, then 20 users against two workers; and the
same 20-user load against a worker with Celery's old thread count, the reference for the fix.

Beside latency: the CPU every process of the stack spent per run (from /proc, as bench/cpu.py reads it), runs per
second per core, and how close the throughput comes to its ceiling on this machine, cores ÷ CPU per run.

    .venv/bin/python bench/load.py [--actions 5] [--turns 2] [--database postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
import websockets  # noqa: E402

from bench.stack import Stack, cookie_header, running_stack, signed_in_client  # noqa: E402
from bench.stats import percentile, tree_cpu_s  # noqa: E402
from tests.support.llm_server import Reply, ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "integration" / "pages"
TERMINAL = ("succeeded", "failed", "aborted")


@dataclass
class Figures:
    navigate_ms: list[float] = field(default_factory=list)
    turn_ms: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    actions_per_s: float = 0.0
    cpu_s_per_run: float = 0.0
    # This process's own CPU per run (the users' clients, the page server, the scripted model): it shares the cores
    # the ceiling divides, so the stack had that much less of them.
    client_cpu_s_per_run: float = 0.0
    cpu_s_per_run_by_part: dict[str, float] = field(default_factory=dict)


class User:
    def __init__(self, stack: Stack, name: str) -> None:
        sync_client, self.headers = signed_in_client(stack.base_url, name)
        self.client = httpx.AsyncClient(base_url=stack.base_url, cookies=sync_client.cookies, timeout=120)
        self.cookie = cookie_header(sync_client)
        sync_client.close()
        self.base_url = stack.base_url
        self.conversation = 0
        self.ws: Any = None
        self.ended: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    async def open(self, *, keepalive: bool = True) -> None:
        """The user's conversation and its websocket. `keepalive=False` for a caller that stops its event loop
        between actions (the client's pings would time out while nothing reads the pongs)."""
        response = await self.client.post("/api/conversations/", json={}, headers=self.headers)
        self.conversation = int(response.json()["id"])
        url = self.base_url.replace("http://", "ws://") + f"/ws/conversations/{self.conversation}/"
        self.ws = await websockets.connect(
            url,
            additional_headers={"Cookie": self.cookie, "Origin": self.base_url},
            max_size=None,
            ping_interval=20 if keepalive else None,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            event = json.loads(raw)
            if event.get("type") == "run.updated" and event["run"]["status"] in TERMINAL:
                self._future(int(event["run"]["id"])).set_result(event["run"])

    def _future(self, run_id: int) -> asyncio.Future[dict[str, Any]]:
        if run_id not in self.ended or self.ended[run_id].done():
            self.ended.setdefault(run_id, asyncio.get_running_loop().create_future())
        return self.ended[run_id]

    async def timed(self, path: str, body: dict[str, Any], run_of: Any) -> tuple[float, dict[str, Any]]:
        started = time.monotonic()
        response = await self.client.post(path, json=body, headers=self.headers)
        if response.status_code >= 400:
            return (time.monotonic() - started) * 1000, {"status": "refused", "error": response.text[:200]}
        run = await asyncio.wait_for(self._future(int(run_of(response.json())["id"])), 300)
        return (time.monotonic() - started) * 1000, run

    async def action(self, name: str, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        path = f"/api/conversations/{self.conversation}/actions/"
        return await self.timed(path, {"action": name, "arguments": arguments}, lambda body: body)

    async def navigate(self, url: str) -> tuple[float, dict[str, Any]]:
        return await self.action("navigate", {"url": url})

    async def turn(self) -> tuple[float, dict[str, Any]]:
        path = f"/api/conversations/{self.conversation}/messages/"
        return await self.timed(path, {"content": "open the article"}, lambda body: body["run"])

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()
        await self.client.aclose()


async def load(stack: Stack, pages: str, users: int, actions: int, turns: int, tag: str) -> Figures:
    people = [User(stack, f"{tag}{n}") for n in range(users)]
    await asyncio.gather(*(person.open() for person in people))
    # Every session is opened (and its browser context made) before the clock starts: this measures steady work.
    await asyncio.gather(*(person.navigate(f"{pages}/article.html") for person in people))
    figures = Figures()

    async def work(person: User, index: int) -> None:
        for n in range(actions):
            page = "article.html" if (index + n) % 2 else "second.html"
            elapsed, run = await person.navigate(f"{pages}/{page}")
            figures.navigate_ms.append(elapsed)
            if run["status"] != "succeeded":
                figures.failed.append(f"navigate: {run['status']} {run.get('error', '')}"[:200])
        for _ in range(turns):
            elapsed, run = await person.turn()
            figures.turn_ms.append(elapsed)
            if run["status"] != "succeeded":
                figures.failed.append(f"turn: {run['status']} {run.get('error', '')}"[:200])

    roots = stack.roots()
    cpu_before, started, client_before = tree_cpu_s(roots), time.monotonic(), time.process_time()
    await asyncio.gather(*(work(person, index) for index, person in enumerate(people)))
    runs = users * (actions + turns)
    figures.actions_per_s = runs / (time.monotonic() - started)
    cpu_after = tree_cpu_s(roots)
    figures.cpu_s_per_run_by_part = {part: (cpu_after[part] - cpu_before.get(part, 0.0)) / runs for part in cpu_after}
    figures.cpu_s_per_run = sum(figures.cpu_s_per_run_by_part.values())
    figures.client_cpu_s_per_run = (time.process_time() - client_before) / runs
    await asyncio.gather(*(person.close() for person in people))
    return figures


def line(label: str, samples: list[float]) -> str:
    if not samples:
        return f"{label:<10} -"
    return f"{label:<10} p50 {percentile(samples, 0.5):7.0f} ms  p95 {percentile(samples, 0.95):7.0f} ms"


def report(title: str, figures: Figures) -> None:
    cores = os.cpu_count() or 1
    ceiling = cores / figures.cpu_s_per_run if figures.cpu_s_per_run else float("nan")
    print(f"{title:<44} {line('navigate', figures.navigate_ms)}   {line('turn', figures.turn_ms)}   "
          f"{figures.actions_per_s:5.1f} runs/s   CPU {figures.cpu_s_per_run * 1000:4.0f} ms/run   "
          f"{figures.actions_per_s / cores:4.2f} runs/s per core   {figures.actions_per_s / ceiling * 100:3.0f} % of "
          f"cores ÷ CPU per run ({ceiling:.1f} runs/s)   client {figures.client_cpu_s_per_run * 1000:3.0f} ms/run"
          + (f"   FAILED {len(figures.failed)}: {figures.failed[:2]}" if figures.failed else ""))  # fmt: skip
    parts = sorted(figures.cpu_s_per_run_by_part.items(), key=lambda item: -item[1])
    print(
        f"{'':<44} CPU per run by part: " + ", ".join(f"{part} {s * 1000:.0f} ms" for part, s in parts if s >= 0.0005)
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=5, help="navigate actions per user")
    parser.add_argument("--turns", type=int, default=2, help="agent turns per user")
    parser.add_argument("--users", default="1,5,20")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="Hive's database: a SQLite file, or a PostgreSQL server of the stack's own as deployed",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.users.split(",")]
    if args.smoke:
        args.actions, args.turns, counts = 1, 1, [1, 2]
    most = max(counts)

    def one_step(request: dict[str, Any]) -> Reply:
        if any(m.get("role") == "tool" for m in request["messages"]):
            return Reply(content="The article is open.")
        return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": pages_url + "/article.html"}}])

    llm = ScriptedLLM()
    llm.start()
    llm.script(one_step)
    base = {
        "HIVE_LLM_BASE_URL": llm.base_url,
        "HIVE_LLM_MODEL": "scripted",
        "HIVE_QUOTA_RUNS_PER_HOUR": "100000",
        "HIVE_POOL_WARM_CONTEXTS": "2",
    }
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.actions} navigate actions and "
          f"{args.turns} agent turns per user; Hive on {args.database}")  # fmt: skip
    try:
        with serve_directory(PAGES) as pages_url:
            with running_stack(workers=1, extra_env=base, database=args.database) as stack:
                for users in counts:
                    report(f"{users:>2} users, 1 worker", asyncio.run(load(stack, pages_url, users, args.actions, args.turns, f"a{users}-")))  # fmt: skip
            if args.smoke:
                return  # one stack is enough to show the benchmark still runs
            with running_stack(workers=2, extra_env=base, database=args.database) as stack:
                report(f"{most:>2} users, 2 workers", asyncio.run(load(stack, pages_url, most, args.actions, args.turns, "b")))  # fmt: skip
            with running_stack(workers=1, extra_env=base, concurrency=2, database=args.database) as stack:
                report(f"{most:>2} users, 1 worker of 2 threads (old default)", asyncio.run(load(stack, pages_url, most, args.actions, args.turns, "c")))  # fmt: skip
    finally:
        llm.stop()
    print(f"load average after the run {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
