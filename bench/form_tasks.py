"""The form-task suite measured: tool calls, model calls, acting steps and look-ups per task.

Run: .venv/bin/python bench/form_tasks.py [--smoke] [--task NAME ...]

Every task of `tests/support/form_tasks.py` (44 small pages under `tests/agents/pages/forms/`) is done through the
real agent loop and the pool's Chromium by the scripted model that reads Hive's text literally; success is read
from the page. For each task: whether it succeeded, the tool calls, the model calls, the acting steps (tool calls
other than look-ups; navigate counts), the look-ups (get_elements) and the median characters per model request
(messages and tools as JSON, as bench/context_size.py counts them). The target: model calls per task no more than
the acting steps + 1: every model call but the final answer acts, none is spent only on looking.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from tests.support.form_tasks import SMOKE, TASKS, FormTask, TaskRun, run_task  # noqa: E402
from tests.support.llm_server import ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "agents" / "pages"


async def measure(tasks: list[FormTask]) -> list[TaskRun]:
    server = ScriptedLLM()
    server.start()
    pool = BrowserPool(BrowserConfig(max_sessions=1, warm_contexts=0))
    runs: list[TaskRun] = []
    with serve_directory(PAGES) as site:
        await pool.start()
        try:
            session = await pool.acquire("bench-form-tasks")
            for task in tasks:
                runs.append(await run_task(task, server=server, tabs=session, site=site))
        finally:
            await pool.stop(save_sessions=False)
            server.stop()
    return runs


def report(runs: list[TaskRun]) -> None:
    print(f"{'task':<22} {'ok':<4} {'tools':>5} {'model':>5} {'acting':>6} {'look-ups':>8} {'chars p50':>9}  note")
    for run in runs:
        note = "" if run.ok else (f"known gap: {run.task.gap}" if run.task.gap else f"FAILED: {run.reply[:80]}")
        print(
            f"{run.task.name:<22} {'yes' if run.ok else 'no':<4} {len(run.tools):>5} {run.model_calls:>5} "
            f"{run.acting:>6} {run.look_ups:>8} {statistics.median(run.request_chars):>9.0f}  {note}"
        )
    passed = [run for run in runs if run.ok]
    within = [run for run in passed if run.model_calls <= run.acting + 1]
    every_request = [chars for run in runs for chars in run.request_chars]
    print(
        f"{'total':<22} {len(passed):>2}/{len(runs):<1} {sum(len(r.tools) for r in runs):>5} "
        f"{sum(r.model_calls for r in runs):>5} {sum(r.acting for r in runs):>6} {sum(r.look_ups for r in runs):>8} "
        f"{statistics.median(every_request):>9.0f}"
    )
    if passed:
        print(
            f"succeeded: {len(passed)} of {len(runs)}; per succeeded task, median tool calls "
            f"{statistics.median(len(r.tools) for r in passed):g}, model calls "
            f"{statistics.median(r.model_calls for r in passed):g}; model calls <= acting steps + 1 on {len(within)} "
            f"of {len(passed)}"
        )
    print(f"median request (messages + tools): {statistics.median(every_request):.0f} characters as readable JSON")
    sent = [size for run in runs for size in run.sent_bytes]
    if sent:
        print(f"median request as sent (compact JSON): {statistics.median(sent):.0f} bytes")
    unexpected = [run.task.name for run in runs if not run.ok and not run.task.gap]
    if unexpected:
        raise SystemExit(f"tasks that should succeed failed: {', '.join(unexpected)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help=f"only {', '.join(SMOKE)}")
    parser.add_argument("--task", action="append", default=[], help="only this task (repeatable)")
    args = parser.parse_args()
    names = set(args.task) or (set(SMOKE) if args.smoke else {task.name for task in TASKS})
    report(asyncio.run(measure([task for task in TASKS if task.name in names])))


if __name__ == "__main__":
    main()
