"""A small owner for fire-and-forget asyncio tasks: keeps them referenced, logs their failures, cancels them together.

Playwright event handlers are synchronous callbacks, so work they start (refreshing tabs, acking frames) runs as a
task; an unreferenced task can be garbage-collected mid-flight and an unobserved failure is silently lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self, owner: str) -> None:
        self._owner = owner
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=f"{self._owner}:{name}")
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    def cancel_all(self) -> list[asyncio.Task[Any]]:
        """Cancel every task; returns them so an async caller can wait for them to unwind."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        return tasks

    async def close(self) -> None:
        tasks = self.cancel_all()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def __len__(self) -> int:
        return len(self._tasks)
