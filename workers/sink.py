"""The agent's event sink in a worker: persists through services, publishes to the conversation's group."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from webapp.core.events import conversation_group
from webapp.runs.models import Step
from webapp.runs.services import step_finish, step_start

# Streamed text is sent in batches: one group message per few tokens is plenty for a reader's eye.
DELTA_FLUSH_S = 0.05


class WorkerSink:
    def __init__(self, *, run_id: int, conversation_id: int) -> None:
        self.run_id = run_id
        self.conversation_id = conversation_id
        self._layer = get_channel_layer()
        self._pending: list[str] = []
        self._flusher: asyncio.Task[None] | None = None

    async def _send(self, event: dict[str, Any]) -> None:
        await self._layer.group_send(
            conversation_group(self.conversation_id), {"type": "conversation.event", "event": event}
        )

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
        await self._send({"type": "assistant.delta", "run": self.run_id, "delta": text})

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            self._flusher.cancel()
        await self.flush()

    async def step_started(self, *, kind: str, action: str = "", arguments: dict[str, Any] | None = None) -> int:
        step = await database_sync_to_async(step_start)(
            run_id=self.run_id, kind=kind, action=action, arguments=arguments
        )
        return step.pk

    async def step_finished(
        self,
        step_id: int,
        *,
        ok: bool,
        observation: str = "",
        error: str = "",
        duration_ms: int | None = None,
        screenshot: bytes | None = None,
    ) -> None:
        await database_sync_to_async(step_finish)(
            step_id=step_id,
            status=Step.Status.SUCCEEDED if ok else Step.Status.FAILED,
            observation=observation,
            error=error,
            duration_ms=duration_ms,
            screenshot=screenshot,
        )
