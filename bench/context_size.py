"""How much each model request carries on a small form task: the messages, the tool schemas, and how many calls.

Run: .venv/bin/python bench/context_size.py [--smoke]

The task is the order form of the agent tests (`tests/agents/pages/order.html`: two fields and a Submit button),
done by two scripted models through the real agent loop and the pool's Chromium: one that looks the page up after
navigating (get_elements, as models did when an action's result only counted the elements), and one that reads the
indices from what each action returned (the whole element list after navigating, what changed after typing); the
latter again with every tool offered at once (no more_tools), the reference for the lean request. For each, every
request the model received is measured: characters of its messages and of its tools as readable JSON, and its size
as the client sent it (compact JSON).

Then single-page tasks through the real stack (Redis, Daphne, a Celery worker with its Chromium, SQLite), as a user
with a custom-provider model profile sends them: the agent there also has the page-content, memory and reply tools
the worker adds. The tasks are form tasks of `bench/form_tasks.py` done by the same literal-reading scripted model,
each in a conversation of its own; its answer must carry the page's result.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from agents import AgentConfig, ModelConfig, run_agent_turn  # noqa: E402
from agents.safety import SafetyConfig  # noqa: E402
from bench.agent_overhead import TimingSink  # noqa: E402
from bench.stack import running_stack, signed_in_client  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from tests.agents.support import form_filler, form_reader  # noqa: E402
from tests.support.form_tasks import TASKS, literal_reader  # noqa: E402
from tests.support.llm_server import ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "agents" / "pages"
TASK = "Order a flight club card at {site}/order.html for Ada Lovelace, ada@example.com."
# Single-page tasks for the real stack: plain fields, a select, a checkbox, a dialog, a custom drop-down.
STACK_TASKS = ("sign_in", "div_button", "select_single", "checkbox", "dialog", "autocomplete", "textarea", "tabs",
               "radio", "press_enter")  # fmt: skip
STACK_SMOKE = ("sign_in", "checkbox")
TERMINAL = ("succeeded", "failed", "aborted")


def sizes(request: dict[str, Any]) -> tuple[int, int]:
    messages = len(json.dumps(request["messages"], ensure_ascii=False))
    tools = len(json.dumps(request.get("tools", []), ensure_ascii=False))
    return messages, tools


async def measure(turns: int) -> dict[str, list[tuple[int, int]]]:
    server = ScriptedLLM()
    server.start()
    pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=0))
    out: dict[str, list[tuple[int, int]]] = {}
    calls: dict[str, list[int]] = {}
    sent: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as folder, serve_directory(Path(folder)) as site:
        for name in ("order.html", "result.html"):
            shutil.copy(PAGES / name, Path(folder) / name)
        await pool.start()
        session = await pool.acquire("bench")
        config = AgentConfig(
            model=ModelConfig(base_url=server.base_url, model="instant", provider="openai", supports_vision=False),
            step_screenshots=False,
            safety=SafetyConfig(always_allowed_origins=(site,)),
        )
        try:
            runs = (
                ("looks the page up", form_filler("native"), config),
                ("reads as it acts", form_reader, config),
                # The reference in the same run: every tool offered at once (no more_tools).
                ("… all tools offered", form_reader, dataclasses.replace(config, deferred_tools=())),
            )
            for label, model, turn_config in runs:
                server.script(model)
                for _ in range(turns):
                    server.requests.clear()
                    server.sent_bytes.clear()
                    await session.active_page.goto("about:blank")
                    await run_agent_turn(config=turn_config, history=[("user", TASK.format(site=site))], tabs=session,
                                         sink=TimingSink())  # fmt: skip
                    out.setdefault(label, []).extend(sizes(r) for r in server.requests)
                    sent.setdefault(label, []).extend(server.sent_bytes)
                    calls.setdefault(label, []).append(len(server.requests))
        finally:
            await pool.stop(save_sessions=False)
            server.stop()
    print(f"order form (2 fields and a button), {turns} turn(s) each; characters per model request")
    print(f"{'model':<20} {'calls':>5} {'messages p50':>13} {'tools':>7} {'total p50':>10} {'total max':>10} "
          f"{'as sent p50':>12}")  # fmt: skip
    for label, measured in out.items():
        totals = [m + t for m, t in measured]
        print(
            f"{label:<20} {statistics.median(calls[label]):>5.0f} {statistics.median(m for m, _ in measured):>13.0f} "
            f"{measured[0][1]:>7} {statistics.median(totals):>10.0f} {max(totals):>10} "
            f"{statistics.median(sent[label]):>12.0f}"
        )
    print("(characters of readable JSON; 'as sent' is the request's bytes on the wire, compact JSON)")
    return out


def through_the_stack(names: tuple[str, ...]) -> None:
    """The tasks through the real stack with a custom-provider profile; prints each task's requests."""
    server = ScriptedLLM()
    server.start()
    server.script(literal_reader)
    tasks = [task for task in TASKS if task.name in names]
    rows: list[tuple[str, bool, int, list[int], int]] = []
    try:
        with serve_directory(PAGES) as site, running_stack() as stack:
            client, headers = signed_in_client(stack.base_url, "context")
            profile = client.post(
                "/api/model-profiles/",
                json={
                    "name": "custom",
                    "provider": "custom",
                    "base_url": server.base_url,
                    "model": "literal",
                    "supports_tools": True,
                },  # fmt: skip
                headers=headers,
            )
            profile.raise_for_status()
            for task in tasks:
                conversation = client.post("/api/conversations/", json={"model_profile": profile.json()["id"]},
                                           headers=headers).json()["id"]  # fmt: skip
                server.requests.clear()
                sent = client.post(f"/api/conversations/{conversation}/messages/",
                                   json={"content": task.message(site)}, headers=headers)  # fmt: skip
                sent.raise_for_status()
                run = _ended(client, int(sent.json()["run"]["id"]))
                reply = [m["content"] for m in client.get(f"/api/conversations/{conversation}/messages/").json()
                         if m["role"] == "assistant"]  # fmt: skip
                ok = run["status"] == "succeeded" and bool(reply) and reply[-1].strip() == task.expect
                chars = [sum(sizes(request)) for request in server.requests]
                tools = len(json.dumps(server.requests[-1].get("tools", []), ensure_ascii=False)) if chars else 0
                rows.append((task.name, ok, len(chars), chars, tools))
            client.close()
    finally:
        server.stop()
    print("\nsingle-page tasks through the real stack, custom-provider profile; characters per model request")
    print(f"{'task':<16} {'ok':<4} {'calls':>5} {'total p50':>10} {'tools (last call)':>18}")
    for name, ok, calls, chars, tools in rows:
        print(f"{name:<16} {'yes' if ok else 'NO':<4} {calls:>5} {statistics.median(chars):>10.0f} {tools:>18}")
    every = [c for row in rows for c in row[3]]
    print(f"{'all':<16} {sum(r[1] for r in rows):>2}/{len(rows):<1} {sum(r[2] for r in rows):>5} "
          f"{statistics.median(every):>10.0f}   (median of every request)")  # fmt: skip
    failed = [row[0] for row in rows if not row[1]]
    if failed:
        raise SystemExit(f"tasks that should succeed failed through the stack: {', '.join(failed)}")


def _ended(client: Any, run_id: int, wait_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        run: dict[str, Any] = client.get(f"/api/runs/{run_id}/").json()
        if run["status"] in TERMINAL:
            return run
        time.sleep(0.1)
    raise TimeoutError(f"run {run_id} did not end within {wait_s:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one turn each, two tasks through the stack")
    parser.add_argument("--only-stack", action="store_true", help="only the tasks through the real stack")
    args = parser.parse_args()
    if not args.only_stack:
        asyncio.run(measure(1 if args.smoke else args.turns))
    through_the_stack(STACK_SMOKE if args.smoke else STACK_TASKS)


if __name__ == "__main__":
    main()
