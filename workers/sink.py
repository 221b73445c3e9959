"""The agent's event sink in a worker: persists through services, publishes to the conversation's group."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from django.conf import settings

from agents.events import ConfirmationRequest, PlanStep
from agents.secrets import Remembered, Secrets
from browser_pool.types import RecordedTarget
from webapp.core.events import publish_now
from webapp.core.types import JsonObject
from webapp.runs.models import Confirmation, Run, Step
from webapp.runs.selectors import confirmation_state
from webapp.runs.services import (
    confirmation_request,
    confirmation_settle,
    model_call_record,
    run_plan_set,
    run_set_status,
    step_finish,
    step_note,
    step_start,
)
from webapp.runs.types import PlanStepPayload

if TYPE_CHECKING:
    from browser_pool.session import Session
    from workers.live import People
    from workers.webtools import WebTools

log = logging.getLogger(__name__)

# Streamed text is sent in batches: one group message per few tokens is plenty for a reader's eye.
DELTA_FLUSH_S = 0.05


# How often a waiting confirmation re-reads its answer from the database, in case the command was dropped.
CONFIRM_POLL_S = 1.0


def starter_key(run: Run) -> str:
    """Whose secrets a run types, as a browser session keeps them apart: the person who started it."""
    return f"user:{run.started_by_id}" if run.started_by_id is not None else "nobody"


class WorkerSink:
    """The agent's reports, persisted through services (which publish after commit) and streamed text, both through
    the publisher of the context the run is in (the worker's outbox)."""

    def __init__(
        self,
        *,
        run_id: int,
        conversation_id: int,
        people: People | None = None,
        web_tools: WebTools | None = None,
        save: Callable[[], Awaitable[None]] | None = None,
        starter: str = "",
    ) -> None:
        """Without `people`, nobody can pause or answer; `save` saves the run's browser session as it is now;
        `starter` names whose secrets the run types (`starter_key`)."""
        self.run_id = run_id
        self.starter = starter
        self.conversation_id = conversation_id
        self.people = people
        self.web_tools = web_tools
        self._save = save
        self._pending: list[str] = []
        # Told when a step starts and when it ends (the run's recording records around steps).
        self.on_step: Callable[[], None] | None = None
        self._flusher: asyncio.Task[None] | None = None
        # The secrets the run's steps fill in: masked in the run's trace too (workers.traces).
        self.secrets: list[Secrets] = []

    def masking(self, secrets: Secrets | None, session: Session) -> Secrets:
        """`secrets`, which the run's steps will fill in, with those typed into `session` by earlier runs: every
        value is masked in what the steps report and picture, and in the run's trace."""
        starter = self.starter
        remembered = Remembered(
            secrets,
            session.typed_by(starter),
            lambda: any(values for who, values in session.typed_secrets.items() if who != starter),
        )
        self.secrets.append(remembered)
        return remembered

    async def text_delta(self, delta: str) -> None:
        self._pending.append(delta)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(DELTA_FLUSH_S)
        await self.flush()

    async def flush(self) -> None:
        if not self._pending:
            return
        text, self._pending = "".join(self._pending), []
        publish_now(self.conversation_id, {"type": "assistant.delta", "run": self.run_id, "delta": text})

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            self._flusher.cancel()
        await self.flush()

    async def step_started(self, *, kind: str, action: str = "", arguments: JsonObject | None = None) -> int:
        if self.on_step is not None:
            self.on_step()
        step = await database_sync_to_async(step_start)(
            run_id=self.run_id, kind=kind, action=action, arguments=arguments
        )
        return int(step.pk)

    async def step_finished(
        self,
        step_id: int,
        *,
        ok: bool,
        observation: str = "",
        error: str = "",
        duration_ms: int | None = None,
        screenshot: bytes | None = None,
        target: RecordedTarget | None = None,
    ) -> None:
        if self.on_step is not None:
            self.on_step()
        await database_sync_to_async(step_finish)(
            step_id=step_id,
            status=Step.Status.SUCCEEDED if ok else Step.Status.FAILED,
            observation=observation,
            error=error,
            duration_ms=duration_ms,
            screenshot=screenshot,
            target=target,
        )

    async def model_call(self, *, request: JsonObject, response: JsonObject, duration_ms: int) -> None:
        await database_sync_to_async(model_call_record)(
            run_id=self.run_id, request=request, response=response, duration_ms=duration_ms
        )

    async def notify(self, message: str) -> None:
        if self.on_step is not None:
            self.on_step()
        await database_sync_to_async(step_note)(run_id=self.run_id, message=message)

    async def plan_updated(self, steps: list[PlanStep]) -> None:
        payload: list[PlanStepPayload] = [
            {"id": s.id, "title": s.title, "depends_on": list(s.depends_on), "status": s.status} for s in steps
        ]
        await database_sync_to_async(run_plan_set)(run_id=self.run_id, steps=payload)

    async def confirm(self, request: ConfirmationRequest) -> bool:
        """Ask, then wait for the answer: pushed by the web over the command channel, or read back from the
        database. No answer before the request's timeout (HIVE_CONFIRM_TIMEOUT_S unless it has one) is a no."""
        await self.flush()
        timeout_s = request.timeout_s or settings.HIVE_CONFIRM_TIMEOUT_S
        confirmation = await database_sync_to_async(confirmation_request)(
            run_id=self.run_id,
            step_id=request.step_id or None,
            action=request.action,
            arguments=request.arguments,
            reason=request.reason,
            url=request.url,
            timeout_s=timeout_s,
        )
        answer: asyncio.Future[bool] = (
            self.people.await_answer(confirmation.pk)
            if self.people is not None
            else asyncio.get_running_loop().create_future()
        )
        deadline = time.monotonic() + timeout_s
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    await database_sync_to_async(confirmation_settle)(
                        confirmation_id=confirmation.pk, status=Confirmation.Status.EXPIRED
                    )
                    return False
                try:
                    return await asyncio.wait_for(asyncio.shield(answer), timeout=min(CONFIRM_POLL_S, left))
                except TimeoutError:
                    state = await database_sync_to_async(confirmation_state)(confirmation_id=confirmation.pk)
                    if state != Confirmation.Status.PENDING:
                        return bool(state == Confirmation.Status.APPROVED)
        finally:
            if self.people is not None:
                self.people.forget_answer(confirmation.pk)
            await database_sync_to_async(run_set_status)(run_id=self.run_id, status=Run.Status.RUNNING)

    async def save_session(self) -> None:
        """Save the browser session now (into its profile too, while it writes one), e.g. after a person's login."""
        if self._save is None:
            return
        try:
            await self._save()
        except Exception:  # the run's end saves it again
            log.exception("saving the browser session of run %s failed", self.run_id)

    async def checkpoint(self) -> str:
        """Before each tool call: wait while a person holds the browser, then tell the agent what happened."""
        if self.people is None:
            return ""
        control = self.people.control_state(self.conversation_id)
        if control.released.is_set():
            return ""
        holder = control.holder
        await self.notify(f"Paused: {holder} has taken over the browser. The agent goes on when they hand it back.")
        await control.released.wait()
        return f"{holder} took over the browser and handed it back"
