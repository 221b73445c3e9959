"""A test's own member of a channel-layer group: every message sent to the group, kept as it arrives."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from channels.layers import get_channel_layer


class GroupListener:
    """One task receives for the listener's whole life, and waits are on what it has kept. A receive cancelled
    half-way (a timeout around each receive) can leave the Redis connection it was blocked on unusable, and a later
    receive on the same layer then waits for ever."""

    def __init__(self, group: str) -> None:
        self.group = group
        self.layer = get_channel_layer()
        self.arrivals: list[tuple[float, dict[str, Any]]] = []  # (time.monotonic() on arrival, message)
        self._arrived = asyncio.Event()
        self._receiving: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self._receiving = asyncio.create_task(self._receive())

    async def stop(self) -> None:
        if self._receiving is not None:
            self._receiving.cancel()
            # Not wait_for: on its timeout it would wait for the cancelled receive again, the very wait that can hang.
            # A receive still stuck after that is the channel layer's, not the code under test's: it is left behind.
            await asyncio.wait({self._receiving}, timeout=5)
            if self._receiving.done() and not self._receiving.cancelled() and self._receiving.exception() is not None:
                raise AssertionError("the listener's receive failed") from self._receiving.exception()
        await self.layer.group_discard(self.group, self.channel)

    async def _receive(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            self.arrivals.append((time.monotonic(), message))
            self._arrived.set()

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [message for _, message in self.arrivals]

    def since(self, at: float) -> list[dict[str, Any]]:
        """The messages that arrived at or after `at` (a time.monotonic() reading)."""
        return [message for arrived, message in self.arrivals if arrived >= at]

    async def until(self, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 5) -> dict[str, Any]:
        """The first message, kept or still to come, that `predicate` accepts; TimeoutError after `wait_s`."""
        deadline = time.monotonic() + wait_s
        while True:
            self._arrived.clear()
            found = next((message for message in self.messages if predicate(message)), None)
            if found is not None:
                return found
            if self._receiving is not None and self._receiving.done():
                self._receiving.result()  # the receive failed: its error, not a timeout, says why
                raise RuntimeError("the listener stopped receiving")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message in {wait_s} s; {len(self.arrivals)} arrived")
            with contextlib.suppress(TimeoutError):  # looked through once more, then the deadline decides
                await asyncio.wait_for(self._arrived.wait(), left)
