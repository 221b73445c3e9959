"""What a worker's parts share while runs go on, one owner per concern: the runs in progress, the outbox of live
updates, the command channel, and the people's side (who holds a browser, answers to confirmations).

Nothing here imports another `workers` module: the runtime builds these and hands each part only what it uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.layers import get_channel_layer

from webapp.core.events import ChannelMessage, CommandMessage, group_send_bounded, session_group

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 10_000  # live updates waiting for Redis; beyond it they are dropped (the database has them)


class RunRegistry:
    """The runs this worker is executing, each an asyncio task; an abort cancels its task."""

    def __init__(self) -> None:
        self._tasks: dict[int, asyncio.Task[Any]] = {}
        self._aborted: set[int] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def ids(self) -> list[int]:
        return list(self._tasks)

    def add(self, run_id: int, task: asyncio.Task[Any]) -> None:
        self._tasks[run_id] = task

    def remove(self, run_id: int) -> None:
        self._tasks.pop(run_id, None)
        self._aborted.discard(run_id)

    def abort(self, run_id: int) -> bool:
        """Cancel a run's task for the user. False when this worker is not running it."""
        task = self._tasks.get(run_id)
        if task is None or task.done():
            return False
        self._aborted.add(run_id)
        task.cancel()
        return True

    def was_aborted(self, run_id: int) -> bool:
        return run_id in self._aborted

    async def end_all(self) -> None:
        """Cancel every run (the worker is shutting down); they record themselves as failed."""
        running = list(self._tasks.values())
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


class Outbox:
    """The worker's publisher: live updates to the channel layer, sent in the order they were posted, none waiting
    for the sender (one Redis round trip per write made the database thread the worker's bottleneck)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: int = OUTBOX_LIMIT) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[tuple[str, ChannelMessage]] = asyncio.Queue(maxsize=limit)

    def send(self, group: str, message: ChannelMessage) -> None:
        """From the loop, or from a database thread (a service's on-commit callback): queue an update at once. The
        database thread's are handed to the loop before the service returns to the coroutine that called it, so
        every update keeps its place."""
        if _running_loop() is self._loop:
            self.post(group, message)
        else:
            self._loop.call_soon_threadsafe(self.post, group, message)

    def post(self, group: str, message: ChannelMessage) -> None:
        """On the loop: queue an update; it is sent after every update queued before it."""
        try:
            self._queue.put_nowait((group, message))
        except asyncio.QueueFull:
            log.warning("live update to %s dropped: %s are waiting for Redis", group, self._queue.maxsize)

    async def send_forever(self) -> None:
        while True:
            group, message = await self._queue.get()
            try:
                await group_send_bounded(group, message)
            except Exception as exc:
                log.warning("could not send a live update to %s: %r", group, exc)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class CommandChannel:
    """The worker's own channel on the layer, joined to the session group of every conversation it holds."""

    def __init__(self) -> None:
        self.name = ""
        self._attached: dict[int, int] = {}

    async def open(self) -> None:
        self.name = await get_channel_layer().new_channel(prefix="worker.")

    async def receive(self) -> CommandMessage:
        """The next command for a conversation this worker holds (only `session.command`s come to this channel)."""
        message: CommandMessage = await get_channel_layer().receive(self.name)
        return message

    async def attach(self, conversation_id: int) -> None:
        """Listen to commands for a conversation (counted: a session and a run may both hold it)."""
        self._attached[conversation_id] = self._attached.get(conversation_id, 0) + 1
        if self._attached[conversation_id] == 1:
            try:
                await get_channel_layer().group_add(session_group(conversation_id), self.name)
            except Exception as exc:
                # Redis is away: the run goes on; a stored abort still reaches it (WorkerRuntime's heartbeat).
                log.warning("could not listen to commands for conversation %s: %r", conversation_id, exc)

    async def detach(self, conversation_id: int) -> None:
        count = self._attached.get(conversation_id, 0) - 1
        if count > 0:
            self._attached[conversation_id] = count
            return
        self._attached.pop(conversation_id, None)
        with contextlib.suppress(Exception):  # Redis is away: the group membership expires by itself
            await get_channel_layer().group_discard(session_group(conversation_id), self.name)


class ControlState:
    """Whether a person holds a conversation's browser; `released` is set while nobody does."""

    def __init__(self) -> None:
        self.released = asyncio.Event()
        self.released.set()
        self.holder = ""

    def set(self, *, paused: bool, holder: object) -> None:
        if paused:
            self.holder = str(holder or "someone")
            self.released.clear()
        else:
            self.released.set()


class People:
    """The people's side of runs: who holds each conversation's browser, and answers to pending confirmations."""

    def __init__(self) -> None:
        self.control: dict[int, ControlState] = {}
        self._answers: dict[int, asyncio.Future[bool]] = {}

    def control_state(self, conversation_id: int) -> ControlState:
        return self.control.setdefault(conversation_id, ControlState())

    def await_answer(self, confirmation_id: int) -> asyncio.Future[bool]:
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._answers[confirmation_id] = answer
        return answer

    def forget_answer(self, confirmation_id: int) -> None:
        self._answers.pop(confirmation_id, None)

    def answer(self, confirmation_id: int, approved: bool) -> None:
        waiting = self._answers.get(confirmation_id)
        if waiting is not None and not waiting.done():
            waiting.set_result(approved)
