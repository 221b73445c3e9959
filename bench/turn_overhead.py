"""A whole turn through the stack: API → Celery → the worker's loop → agent → Channels → websocket.

Figures, with an instant scripted model on loopback:
- turn overhead: from POSTing the message to the websocket seeing the run succeed, minus the model's own time
  (each model call's duration as the worker measured it) and the browser time (each step's duration);
- abort latency: from POSTing /abort while the model is streaming to the websocket seeing the run aborted.

    .venv/bin/python bench/turn_overhead.py [--turns 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from bench.stack import cookie_header, running_stack, signed_in_client  # noqa: E402
from bench.stats import next_event, percentile  # noqa: E402
from tests.support.llm_server import Reply, ScriptedLLM  # noqa: E402


def done(event: dict[str, Any]) -> bool:
    return event.get("type") == "run.updated" and event["run"]["status"] in ("succeeded", "failed", "aborted")


async def one_turn(client: Any, headers: dict[str, str], ws: Any, conversation: int) -> dict[str, float]:
    started = time.monotonic()
    response = await asyncio.to_thread(
        client.post, f"/api/conversations/{conversation}/messages/", json={"content": "look"}, headers=headers
    )
    run_id = response.json()["run"]["id"]
    ended, event = await next_event(ws, lambda e: done(e) and e["run"]["id"] == run_id)
    assert event["run"]["status"] == "succeeded", event
    total_ms = (ended - started) * 1000
    debug = (await asyncio.to_thread(client.get, f"/api/runs/{run_id}/debug/")).json()
    run = (await asyncio.to_thread(client.get, f"/api/runs/{run_id}/")).json()
    model_ms = sum(call["duration_ms"] for call in debug["model_calls"])
    browser_ms = sum(step["duration_ms"] or 0 for step in run["steps"])
    return {"total": total_ms, "model": model_ms, "browser": browser_ms, "overhead": total_ms - model_ms - browser_ms}


async def one_abort(client: Any, headers: dict[str, str], ws: Any, conversation: int) -> float:
    response = await asyncio.to_thread(
        client.post, f"/api/conversations/{conversation}/messages/", json={"content": "talk"}, headers=headers
    )
    run_id = response.json()["run"]["id"]
    await next_event(ws, lambda e: e.get("type") == "assistant.delta" and e["run"] == run_id)
    started = time.monotonic()
    await asyncio.to_thread(client.post, f"/api/runs/{run_id}/abort/", headers=headers)
    ended, event = await next_event(ws, lambda e: done(e) and e["run"]["id"] == run_id)
    assert event["run"]["status"] == "aborted", event
    return (ended - started) * 1000


async def measure(stack: Any, llm: ScriptedLLM, turns: int) -> tuple[list[dict[str, float]], list[float]]:
    client, headers = signed_in_client(stack.base_url, "bench")
    conversation = client.post("/api/conversations/", json={}, headers=headers).json()["id"]
    url = stack.base_url.replace("http://", "ws://") + f"/ws/conversations/{conversation}/"
    async with websockets.connect(
        url, additional_headers={"Cookie": cookie_header(client), "Origin": stack.base_url}
    ) as ws:

        def one_step(request: dict[str, Any]) -> Reply:
            if any(m.get("role") == "tool" for m in request["messages"]):
                return Reply(content="The page is empty.")
            return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])

        llm.script(one_step)
        await one_turn(client, headers, ws, conversation)  # warm-up: session, imports, connections
        results = [await one_turn(client, headers, ws, conversation) for _ in range(turns)]
        llm.script(lambda request: Reply(content="word " * 2000, chunk_size=5, chunk_delay_s=0.02))
        aborts = [await one_abort(client, headers, ws, conversation) for _ in range(turns)]
    return results, aborts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.turns = 2
    llm = ScriptedLLM()
    llm.start()
    try:
        extra = {"HIVE_LLM_BASE_URL": llm.base_url, "HIVE_LLM_MODEL": "scripted"}
        with running_stack(extra_env=extra) as stack:
            results, aborts = asyncio.run(measure(stack, llm, args.turns))
    finally:
        llm.stop()
    print(f"{args.turns} turns of one tool call (get_elements) and an answer, instant scripted model:")
    for key in ("total", "model", "browser", "overhead"):
        values = [r[key] for r in results]
        print(
            f"  {key:9s} p50 {percentile(values, 0.5):7.1f} ms  p95 {percentile(values, 0.95):7.1f} ms  mean {statistics.mean(values):7.1f} ms"
        )
    print(f"abort latency (API call → websocket sees 'aborted'), {len(aborts)} runs:")
    print(f"  p50 {percentile(aborts, 0.5):.1f} ms  p95 {percentile(aborts, 0.95):.1f} ms  max {max(aborts):.1f} ms")


if __name__ == "__main__":
    main()
