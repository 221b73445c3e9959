"""Replaying a saved workflow in a conversation's browser, without a model.

Each recorded step is found again on the page as it is now (browser_pool.replay: the recorded selector, stable
attributes, role and name, label, text, XPath, in that order, accepting only an element that agrees with the
record) and done with its parameters filled in, recorded as a step with a screenshot like any other. A step whose
element cannot be found, or whose action fails, ends the replay with the step, the reason and the page as it was.
"""

from __future__ import annotations

import contextlib
import json
import time

from channels.db import database_sync_to_async
from playwright.async_api import Error as PlaywrightError

from browser_pool.actions import execute_action
from browser_pool.errors import BrowserCrashedError
from browser_pool.replay import find_target
from browser_pool.session import Session
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.runs.models import Run, Step
from webapp.workflows.models import WorkflowVersion
from webapp.workflows.services import fill
from workers.manual import page_screenshot
from workers.sink import WorkerSink
from workers.turns import finish

# A page that is still loading after the previous step gets this long to show the next step's element.
FIND_WAIT_S = 5.0
FIND_POLL_S = 0.1


async def _find(session: Session, target: dict[str, object]) -> tuple[int | None, str]:
    deadline = time.monotonic() + FIND_WAIT_S
    while True:
        page = session.active_page
        with contextlib.suppress(PlaywrightError):
            await page.wait_for_load_state("domcontentloaded", timeout=FIND_WAIT_S * 1000)
        found = await find_target(page, dict(target))
        if found.index is not None or time.monotonic() > deadline:
            reason = (
                found.how if found.index is not None else f"{found.how} ({'; '.join(found.tried) or 'no way to try'})"
            )
            return found.index, reason
        await page.wait_for_timeout(FIND_POLL_S * 1000)


async def replay_workflow(run: Run, session: Session, sink: WorkerSink) -> None:
    version = await database_sync_to_async(WorkflowVersion.objects.get)(pk=run.metadata["version_id"])
    values = {str(k): str(v) for k, v in (run.metadata.get("parameters") or {}).items()}
    uploads = await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
    total = len(version.steps)
    for number, recorded in enumerate(version.steps, 1):
        action = str(recorded["action"])
        arguments = fill(dict(recorded.get("arguments") or {}), values)
        intent = recorded.get("intent") or action
        step_id = await sink.step_started(kind=Step.Kind.ACTION, action=action, arguments=arguments)
        started = time.monotonic()
        if recorded.get("target"):
            index, how = await _find(session, recorded["target"])
            if index is None:
                error = f"Step {number} of {total} ({intent}): its element is not on {session.active_page.url}: {how}"
                await sink.step_finished(
                    step_id, ok=False, error=error, duration_ms=int((time.monotonic() - started) * 1000),
                    screenshot=await page_screenshot(session),
                )  # fmt: skip
                await finish(run.pk, Run.Status.FAILED, error)
                return
            arguments = {**arguments, "index": index}
        result = await execute_action(session, action, arguments, uploads=uploads)
        if not result.ok and await session.lost_within(1.0):
            raise BrowserCrashedError(session.lost_reason or "the browser crashed")
        await sink.step_finished(
            step_id,
            ok=result.ok,
            observation=json.dumps(result.as_dict(), ensure_ascii=False, default=str),
            error=result.error,
            duration_ms=int((time.monotonic() - started) * 1000),
            screenshot=result.screenshot or await page_screenshot(session),
            target=result.target,
        )
        if not result.ok:
            await finish(run.pk, Run.Status.FAILED, f"Step {number} of {total} ({intent}) failed: {result.error}")
            return
    await finish(run.pk, Run.Status.SUCCEEDED)
