"""The pace of one socket's live input: each event is a task on the worker's one loop, so a socket may relay at most
`HIVE_LIVE_INPUT_PER_S` of them a second (a second's worth at once). Past that, mouse moves are coalesced (the
newest position goes when the bucket has room again; a pointer only needs to end up where the hand is) and other
events are dropped; the client is told once per socket."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from aiolimiter import AsyncLimiter

from webapp.core.types import JsonObject

Relay = Callable[[JsonObject], Awaitable[None]]

DROPPED_NOTICE = (
    "Live input is limited to {rate:g} events a second; some of yours were dropped. Mouse moves are merged, so "
    "the pointer still ends up where you left it."
)


class InputPacer:
    def __init__(self, rate_per_s: float, relay: Relay, tell: Callable[[str], Awaitable[None]]) -> None:
        self.rate = rate_per_s
        self._limiter = AsyncLimiter(rate_per_s, 1.0) if rate_per_s > 0 else None
        self._relay = relay
        self._tell = tell
        self._told = False
        self._pending_move: JsonObject | None = None
        self._mover: asyncio.Task[None] | None = None
        self.dropped = 0

    async def offer(self, event: JsonObject) -> None:
        """Relay the event now if the socket's pace allows it; otherwise coalesce it (a move) or drop it."""
        if self._limiter is None:
            await self._relay(event)
            return
        if event.get("kind") == "move":
            self._pending_move = event
            if self._mover is None or self._mover.done():
                self._mover = asyncio.create_task(self._send_move(self._limiter))
            return
        if not self._limiter.has_capacity():
            await self._drop()
            return
        await self._limiter.acquire()
        self._pending_move = None  # the event carries its own position: an older move would only go backwards
        await self._relay(event)

    async def _send_move(self, limiter: AsyncLimiter) -> None:
        """Wait for room, then send the newest move (those that came meanwhile replaced each other)."""
        if not limiter.has_capacity():
            self.dropped += 1  # at least this move is merged into a later one
            await self._notice()
        await limiter.acquire()
        move, self._pending_move = self._pending_move, None
        if move is not None:
            await self._relay(move)

    async def _drop(self) -> None:
        self.dropped += 1
        await self._notice()

    async def _notice(self) -> None:
        if not self._told:
            self._told = True
            await self._tell(DROPPED_NOTICE.format(rate=self.rate))

    async def close(self) -> None:
        if self._mover is not None:
            self._mover.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._mover
