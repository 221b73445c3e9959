"""How much each model request carries on a small form task: the messages, the tool schemas, and how many calls.

Run: .venv/bin/python bench/context_size.py [--smoke]

The task is the order form of the agent tests (`tests/agents/pages/order.html`: two fields and a Submit button),
done by two scripted models through the real agent loop and the pool's Chromium: one that looks the page up after
navigating (get_elements, as models did when an action's result only counted the elements), and one that reads the
indices from what each action returned (the whole element list after navigating, what changed after typing); the
latter again with every tool offered at once (no more_tools), the reference for the lean request. For each, every
request the model received is measured: characters of its messages and of its tools as readable JSON, and its size
as the client sent it (compact JSON).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from agents import AgentConfig, ModelConfig, run_agent_turn  # noqa: E402
from agents.safety import SafetyConfig  # noqa: E402
from bench.agent_overhead import TimingSink  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from tests.agents.support import form_filler, form_reader  # noqa: E402
from tests.support.llm_server import ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "agents" / "pages"
TASK = "Order a flight club card at {site}/order.html for Ada Lovelace, ada@example.com."


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one turn each")
    args = parser.parse_args()
    asyncio.run(measure(1 if args.smoke else args.turns))


if __name__ == "__main__":
    main()
