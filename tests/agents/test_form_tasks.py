"""The form-task suite: every task through the real agent loop and the pool's Chromium, solved by
a scripted model that reads Hive's text literally and does not know the pages. Success is read from the page.

A task that fails today because of a known gap in what Hive shows or can do is marked xfail (strict) with the gap:
when the gap is closed the test fails until its mark is removed.
"""

from __future__ import annotations

import pytest

from browser_pool.session import Session
from tests.support.form_tasks import TASKS, FormTask, run_task
from tests.support.llm_server import ScriptedLLM

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


def _case(task: FormTask) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=task.gap)] if task.gap else []
    return pytest.param(task, id=task.name, marks=marks)


@pytest.mark.parametrize("task", [_case(task) for task in TASKS])
async def test_a_form_task_is_done_from_what_hive_shows(
    model_server: ScriptedLLM, site: str, session: Session, task: FormTask
) -> None:
    run = await run_task(task, server=model_server, tabs=session, site=site)

    assert run.result == task.expect, f"{run.reply}\ntools: {', '.join(run.tools)}"
    assert run.reply == task.expect
    # Observe as you act: each action shows what changed, and a small page is listed whole, so
    # the model looks up only a target below the fold of a long page; otherwise its calls are the acting steps and
    # the answer.
    assert run.look_ups <= task.look_ups, ", ".join(run.tools)
    assert run.model_calls <= run.acting + 1 + task.look_ups
