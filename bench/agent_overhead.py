"""What the agent itself costs per step, with a model that answers instantly.

Run: .venv/bin/python bench/agent_overhead.py [--turns 6] [--steps 20] [--no-screenshots] [--against PATH [--rounds 4]]

A scripted OpenAI-compatible server on 127.0.0.1 answers every request at once (its handler only picks the next
element from the element list the agent sent). Each turn opens a local page with five text fields and five
counter buttons, lists the elements once, then alternates `type` and `click` steps on them. Everything else is
the real thing: the pool's Chromium, the agent loop, the safety policy, the page observation after each action,
a JPEG screenshot per step, the model round trip through the local HTTP server (streamed, with the whole
growing conversation), and a sink that records events in memory.

Per step, "total" is the time from one step's end to the next one's: the model round trip that chose the step,
the safety check, the action, the fresh page summary and the screenshot, plus the loop's own bookkeeping
("other"). The first step of each turn (get_elements) and the final answer are left out.

With `--against PATH` (another checkout of Hive, e.g. the code before a change), the per-step overhead (the step's
total without the model round trip) and its parts are measured for both in the same run, in alternating rounds of
--turns turns (each in a process of its own, each checkout first every other round), and printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from agents import AgentConfig, ModelConfig, run_agent_turn  # noqa: E402
from agents.events import ConfirmationRequest, EventSink, PlanStep  # noqa: E402
from agents.safety import SafetyConfig  # noqa: E402
from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from tests.agents.support import calls_made, find_index  # noqa: E402
from tests.support.llm_server import Reply, ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

FIELDS = 5
PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>Bench form</title></head><body><h1>Bench form</h1>"
    + "".join(f"<label>Field {n} <input aria-label='Field {n}'></label>" for n in range(FIELDS))
    + "".join(
        f'<button onclick="this.nextElementSibling.textContent = +this.nextElementSibling.textContent + 1">'
        f"Count {n}</button><span>0</span>"
        for n in range(FIELDS)
    )
    + "</body></html>"
)


@dataclass
class TimingSink:
    """Records when each step ends; everything else is accepted and dropped, as a fast worker sink would."""

    finished: list[tuple[float, str]] = field(default_factory=list)
    _actions: dict[int, str] = field(default_factory=dict)

    async def text_delta(self, delta: str) -> None:
        return

    async def step_started(self, *, kind: str, action: str = "", arguments: dict[str, Any] | None = None) -> int:
        self._actions[len(self._actions) + 1] = action
        return len(self._actions)

    async def step_finished(self, step_id: int, **_: Any) -> None:
        self.finished.append((time.perf_counter(), self._actions[step_id]))

    async def model_call(self, *, request: dict[str, Any], response: dict[str, Any], duration_ms: int) -> None:
        return

    async def confirm(self, request: ConfirmationRequest) -> bool:
        return True

    async def notify(self, message: str) -> None:
        return

    async def plan_updated(self, steps: list[PlanStep]) -> None:
        return

    async def checkpoint(self) -> str:
        return ""


def scripted_steps(steps: int) -> Any:
    """get_elements, then type / click alternating over the fields and buttons, then a final answer."""

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
        done = len(made) - 1
        if done >= steps:
            return Reply(content="Done.")
        n = (done // 2) % FIELDS
        if done % 2 == 0:
            index = find_index(request, f"Field {n}", "input")
            return Reply(tool_calls=[{"name": "type", "arguments": {"index": index, "text": f"value {done}"}}])
        return Reply(tool_calls=[{"name": "click", "arguments": {"index": find_index(request, f"Count {n}")}}])

    return handler


async def run(turns: int, steps: int, screenshots: bool, elements_chars: int) -> dict[str, dict[str, list[float]]]:
    server = ScriptedLLM()
    server.start()
    server.script(scripted_steps(steps))
    pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=0))
    per_kind: dict[str, dict[str, list[float]]] = {"click": {}, "type": {}}
    with tempfile.TemporaryDirectory() as folder, serve_directory(Path(folder)) as site:
        (Path(folder) / "form.html").write_text(PAGE, encoding="utf-8")
        await pool.start()
        session = await pool.acquire("bench")
        config = AgentConfig(
            model=ModelConfig(base_url=server.base_url, model="instant", provider="openai", supports_vision=False),
            max_tool_calls=steps + 5,
            loop_repeat_limit=steps,
            step_screenshots=screenshots,
            elements_chars=elements_chars,
            safety=SafetyConfig(always_allowed_origins=(site,)),
        )
        try:
            for turn in range(turns + 1):  # the first turn warms up the page model, the HTTP client and Chromium
                await session.active_page.goto(f"{site}/form.html")
                sink = TimingSink()
                typed: EventSink = sink  # mypy checks the bench's sink against the agent's protocol
                result = await run_agent_turn(
                    config=config, history=[("user", "Fill the form.")], tabs=session, sink=typed
                )
                if turn == 0:
                    continue
                # Step k (k >= 1) is chosen by model call k and has action k, observe k-1, screenshot k-1.
                for k in range(1, len(sink.finished)):
                    kind = sink.finished[k][1]
                    figures = per_kind[kind]
                    total = (sink.finished[k][0] - sink.finished[k - 1][0]) * 1000
                    parts = {
                        "model round trip": result.timings["model"][k],
                        "safety check": result.timings["safety"][k],
                        "action": result.timings["action"][k],
                        "page summary": result.timings["observe"][k - 1],
                        "screenshot": result.timings["screenshot"][k - 1] if screenshots else 0.0,
                    }
                    parts["other (loop, sink, prompt)"] = total - sum(parts.values())
                    figures.setdefault("total", []).append(total)
                    for name, value in parts.items():
                        figures.setdefault(name, []).append(value)
        finally:
            await pool.stop(save_sessions=False)
            server.stop()
    return per_kind


# Run in a process of its own with another checkout first on the path: its figures per step, as JSON, with the
# per-step overhead (the step's total without the model round trip).
_FIGURES_IN = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
from agents import AgentConfig
from bench.agent_overhead import run
figures = asyncio.run(run(int(sys.argv[2]), int(sys.argv[3]), True, AgentConfig(model=None).elements_chars))
for parts in figures.values():
    parts["overhead"] = [t - m for t, m in zip(parts["total"], parts["model round trip"])]
print(json.dumps(figures))
"""


def compare(against: Path, rounds: int, turns: int, steps: int) -> None:
    """This checkout's figures beside another's, measured in alternating rounds."""
    trees = {"this checkout": Path(__file__).resolve().parents[1], "the other": against.resolve()}
    figures: dict[str, dict[str, dict[str, list[float]]]] = {label: {} for label in trees}
    for round_number in range(rounds):
        # Each goes first every other round, so that neither always follows the other's shutdown.
        for label, tree in list(trees.items())[:: 1 if round_number % 2 == 0 else -1]:
            done = subprocess.run(
                [sys.executable, "-c", _FIGURES_IN, str(tree), str(turns), str(steps)],
                cwd=tree, capture_output=True, text=True, check=True,
            )  # fmt: skip
            for kind, parts in json.loads(done.stdout.strip().splitlines()[-1]).items():
                for name, values in parts.items():
                    figures[label].setdefault(kind, {}).setdefault(name, []).extend(values)
    print(f"p50 in ms per step, {rounds} alternating rounds of {turns} turn(s); the other: {against}")
    for kind in ("click", "type"):
        ours, theirs = figures["this checkout"][kind], figures["the other"][kind]
        print(f"\n{kind} steps ({len(ours['total'])} / {len(theirs['total'])})")
        print(f"{'part':<28}{'this checkout':>15}{'the other':>11}{'change':>9}")
        for name in ("overhead", *(name for name in ours if name != "overhead")):
            mine, other = percentile(ours[name], 0.5), percentile(theirs[name], 0.5)
            change = f"{(mine / other - 1) * 100:+.1f}%" if other > 0.05 else ""
            print(f"{name:<28}{mine:>15.1f}{other:>11.1f}{change:>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--steps", type=int, default=20, help="type/click steps per turn")
    parser.add_argument("--no-screenshots", action="store_true", help="AgentConfig(step_screenshots=False)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    parser.add_argument("--against", type=Path, help="another checkout: compare per-step overhead, side by side")
    parser.add_argument("--rounds", type=int, default=4, help="with --against: alternating rounds")
    args = parser.parse_args()
    if args.smoke:
        args.turns, args.steps = 1, 4
    if args.against is not None:
        compare(args.against, args.rounds, args.turns, args.steps)
        return
    # The reference in the same run: observations with element counts only (the model looks elements up itself).
    for label, chars in (
        ("with the elements that changed", AgentConfig(model=None).elements_chars),
        ("counts only", 0),
    ):
        per_kind = asyncio.run(run(args.turns, args.steps, not args.no_screenshots, chars))
        for kind, figures in per_kind.items():
            count = len(figures["total"])
            print(f"\n{kind} steps ({count}), {label}, milliseconds")
            print(f"{'part':<28}{'p50':>8}{'p95':>8}{'mean':>8}")
            for name, values in figures.items():
                p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
                print(f"{name:<28}{p50:>8.1f}{p95:>8.1f}{statistics.fmean(values):>8.1f}")


if __name__ == "__main__":
    main()
