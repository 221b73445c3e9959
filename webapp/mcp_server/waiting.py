"""Waiting for a run to end, hearing its steps as they happen.

The conversation's live events (the channel layer) say at once when a step or the run changes; the database has
the last word, re-read on the run's own events and every second in case an event was dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from webapp.core.events import Event, EventMessage, conversation_group
from webapp.core.types import JsonObject
from webapp.runs.models import Run
from webapp.runs.services import run_abort

RECHECK_S = 1.0

# Each hears the record as the event carries it: a StepOutput, a ConfirmationOutput.
StepListener = Callable[[JsonObject], Awaitable[None]]
EventListener = Callable[[JsonObject], None]


@database_sync_to_async
def _read(run_id: int) -> Run:
    return Run.objects.get(pk=run_id)


@database_sync_to_async
def _abort(run_id: int) -> None:
    run = Run.objects.get(pk=run_id)
    if run.is_active:
        run_abort(run=run)


class RunWatch:
    """Subscribed before the run is made, so none of its events can be missed."""

    def __init__(self, conversation_id: int) -> None:
        self.group = conversation_group(conversation_id)
        self.layer = get_channel_layer()
        self.channel = ""

    async def __aenter__(self) -> RunWatch:
        if self.layer is not None:
            with contextlib.suppress(Exception):  # Redis away: the database is read every second instead
                self.channel = await self.layer.new_channel()
                await asyncio.wait_for(self.layer.group_add(self.group, self.channel), 1.0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.layer is not None and self.channel:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.layer.group_discard(self.group, self.channel), 1.0)

    async def _next_event(self) -> Event | None:
        if self.layer is None or not self.channel:
            await asyncio.sleep(RECHECK_S)
            return None
        try:
            message: EventMessage = await asyncio.wait_for(self.layer.receive(self.channel), RECHECK_S)
        except TimeoutError:
            return None
        event = message.get("event")
        return event if isinstance(event, dict) and "type" in event else None

    async def until_done(
        self,
        run_id: int,
        *,
        on_step: StepListener | None = None,
        on_confirmation: EventListener | None = None,
        timeout_s: float,
    ) -> Run:
        """The run once it has ended. Cancelled (the client gave up) or out of time, the run is stopped."""
        try:
            async with asyncio.timeout(timeout_s):
                run = await _read(run_id)
                while run.is_active:
                    event = await self._next_event()
                    if event is None:
                        run = await _read(run_id)
                        continue
                    if event["type"] in ("step.created", "step.updated") and on_step is not None:
                        step = event.get("step") or {}
                        if step.get("run") == run_id:
                            await on_step(step)
                    elif event["type"] == "confirmation.requested" and on_confirmation is not None:
                        asked = event.get("confirmation") or {}
                        if asked.get("run") == run_id:
                            on_confirmation(asked)
                    elif event["type"] == "run.updated":
                        changed = event.get("run") or {}
                        if changed.get("id") == run_id and changed.get("status") not in Run.ACTIVE:
                            run = await _read(run_id)
                return run
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.shield(_abort(run_id))
            raise
