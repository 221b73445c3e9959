"""The worker process's one long-lived asyncio loop, in its own thread.

Playwright's async API, the browser pool and every agent turn live on this loop; Celery's threads hand
their coroutines to it and wait for the result.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """One loop, run by one thread from `start` to `stop` (not again after)."""

    def __init__(self, name: str = "hive-loop") -> None:
        self._name = name
        # Made now and run by the thread once it starts, so that the parts built beside it can hold on to it.
        self.loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        self.loop.close()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        if self._thread is None:
            coro.close()
            raise RuntimeError("the loop thread is not running")
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return self.submit(coro).result(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is None:
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout)
        self._thread = None
