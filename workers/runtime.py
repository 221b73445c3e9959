"""A worker process's runtime: it builds the parts (sessions, runs, outbox, command channel, people) on its loop,
runs the background jobs (heartbeat, reaper, outbox, commands) and hands Celery's runs to `workers.turns`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Coroutine
from typing import Any, TypeVar

import redis.asyncio as aioredis
from channels.db import database_sync_to_async
from django.conf import settings

from webapp.core import placement
from webapp.core.events import Command, publishing_through
from webapp.core.exceptions import ApplicationError
from webapp.profiles.services import profile_capture_store
from webapp.runs.models import Run
from workers.agent_turn import agent_turn
from workers.browser import SessionHost
from workers.egress import blocked_total
from workers.limits import time_limits
from workers.live import CommandChannel, Outbox, People, RunRegistry
from workers.loop import LoopThread
from workers.manual import manual_action
from workers.reaper import reap_once
from workers.replay import replay_workflow
from workers.turns import RunContext, run_entry

log = logging.getLogger(__name__)

WORKER_KEY_PREFIX = placement.WORKER_KEY_PREFIX

T = TypeVar("T")
# How long a stopping worker saves its browser sessions for before it hands its conversations on anyway (within the
# 30 s its whole stop may take).
SAVE_ON_STOP_S = 15.0


class WorkerRuntime:
    def __init__(self, hostname: str) -> None:
        # A fresh id per process start: runs claimed by a previous life of this worker are orphans.
        self.worker_id = f"{hostname}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.queue = placement.worker_queue(self.worker_id)
        self.loop_thread = LoopThread()
        self.channel = CommandChannel()
        self.runs = RunRegistry()
        self.outbox = Outbox(self.loop_thread.loop)
        # Conversations whose browser a person has taken over (the agent waits), and answers to confirmations.
        self.people = People()
        self.sessions = SessionHost(worker_id=self.worker_id, channel=self.channel)
        self.context = RunContext(
            worker_id=self.worker_id,
            runs=self.runs,
            sessions=self.sessions,
            channel=self.channel,
            people=self.people,
        )
        self._redis: aioredis.Redis | None = None
        self._background: list[asyncio.Task[None]] = []
        self._commands: set[asyncio.Task[Any]] = set()

    # -- lifecycle (called from Celery's threads) --------------------------------------------------
    def start(self) -> None:
        self.loop_thread.start()
        self.on_loop(self._start(), timeout=30)
        log.info("worker %s ready", self.worker_id)

    def end_runs(self, timeout: float = 30) -> None:
        """Cancel every run in progress; each is recorded as failed because the worker shut down."""
        with contextlib.suppress(Exception):
            self.on_loop(self.runs.end_all(), timeout=timeout)

    def stop(self) -> None:
        try:
            self.on_loop(self._stop(), timeout=30)
        except Exception:
            log.exception("the worker did not stop cleanly")
        self.loop_thread.stop()

    def run_turn(self, run_id: int, timeout: float) -> None:
        body = run_entry(self.context, run_id, agent_turn, timeout_s=time_limits().turn_cancel_s)
        self.on_loop(body, timeout)

    def run_action(self, run_id: int, timeout: float) -> None:
        body = run_entry(self.context, run_id, manual_action, timeout_s=time_limits().action_s)
        self.on_loop(body, timeout)

    def run_workflow(self, run_id: int, timeout: float) -> None:
        body = run_entry(self.context, run_id, replay_workflow, timeout_s=time_limits().turn_cancel_s)
        self.on_loop(body, timeout)

    def open_session(self, conversation_id: int, timeout: float) -> None:
        self.on_loop(self._open_session(conversation_id), timeout)

    def extract_tab(self, conversation_id: int, tab_id: str, timeout: float) -> None:
        self.on_loop(self.sessions.extract_tab(conversation_id, tab_id), timeout)

    def on_loop(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run `coro` on the worker's loop as the worker's own: what it publishes, what the tasks it starts publish
        and what the services it calls on their database thread publish goes through the outbox."""
        return self.loop_thread.run(self._publishing(coro), timeout)

    async def _publishing(self, coro: Coroutine[Any, Any, T]) -> T:
        with publishing_through(self.outbox):
            return await coro

    def capture_profile(self, conversation_id: int, name: str, replace: bool, reply: str, answer_by: float) -> None:
        body = self._capture_profile(conversation_id, name, replace, reply, answer_by)
        self.on_loop(body, timeout=max(1.0, answer_by - time.time()) + 5)

    async def _capture_profile(
        self, conversation_id: int, name: str, replace: bool, reply: str, answer_by: float
    ) -> None:
        """Save the conversation's browser as its owner's profile and answer on the request's own list; by
        `answer_by`, or not at all (the request has said that nobody did it)."""
        try:
            async with asyncio.timeout(answer_by - time.time()):
                state = await self.sessions.capture(conversation_id)
                profile = await database_sync_to_async(profile_capture_store)(
                    conversation_id=conversation_id, name=name, replace=replace, state=state
                )
            outcome: dict[str, object] = {"profile": profile.pk}
        except TimeoutError:
            log.warning("saving conversation %s as a profile took too long; given up", conversation_id)
            return
        except ApplicationError as exc:
            outcome = {"error": exc.message, "status": exc.status_code}
        except Exception as exc:
            log.exception("saving conversation %s as a profile failed", conversation_id)
            outcome = {"error": f"The browser could not be saved: {exc}", "status": 500}
        assert self._redis is not None
        async with self._redis.pipeline() as pipe:
            pipe.rpush(reply, json.dumps(outcome))
            pipe.expire(reply, 60)
            await pipe.execute()

    async def _open_session(self, conversation_id: int) -> None:
        session = await self.sessions.acquire(conversation_id)
        await self.sessions.release(session)

    # -- on the loop -------------------------------------------------------------------------------
    async def _start(self) -> None:
        self._redis = aioredis.from_url(settings.REDIS_URL)
        await self.channel.open()
        await self.sessions.start()
        await self._heartbeat_once()
        self._background = [
            asyncio.create_task(self.outbox.send_forever(), name="outbox"),
            asyncio.create_task(self._heartbeat_forever(), name="heartbeat"),
            asyncio.create_task(self._reap_forever(), name="reaper"),
            asyncio.create_task(self._listen_commands(), name="commands"),
        ]

    async def _stop(self) -> None:
        await self.runs.end_all()
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        saved = False
        try:
            # Saved while this worker still holds its conversations, so that the next run of one, sent elsewhere
            # once it is gone, starts from what its browser shows now.
            async with asyncio.timeout(SAVE_ON_STOP_S):
                await self.sessions.save_all()
            saved = True
        except Exception:
            log.exception("the browser sessions could not all be saved before stopping")
        try:
            # Taken back before the browsers close, which can be slow or fail: a stopping worker is placed no run.
            if self._redis is not None:
                await self._redis.delete(WORKER_KEY_PREFIX + self.worker_id)
        finally:
            try:
                await self.sessions.stop(save=not saved)
            finally:
                if self._redis is not None:
                    await self._redis.aclose()

    def load(self) -> placement.WorkerLoad:
        return {
            "id": self.worker_id,
            "queue": self.queue,
            "capacity": self.sessions.capacity,
            "sessions": self.sessions.live_sessions,
            "turns": len(self.runs),
            "egress_blocked": blocked_total(),
            "ts": time.time(),
        }

    async def _heartbeat_once(self) -> None:
        assert self._redis is not None
        ttl = max(1, int(settings.HIVE_WORKER_HEARTBEAT_TTL_S))
        await self._redis.set(WORKER_KEY_PREFIX + self.worker_id, json.dumps(self.load()), ex=ttl)

    async def _heartbeat_forever(self) -> None:
        while True:
            await asyncio.sleep(settings.HIVE_WORKER_HEARTBEAT_S)
            try:
                await self._heartbeat_once()
                await self.sessions.sweep()
                await self.sessions.keep_profiles()
                await self.sessions.reassert_homes()
                await self._resume_expired_control()
                await self._abort_requested_turns()
            except Exception:
                log.exception("heartbeat failed")

    async def _abort_requested_turns(self) -> None:
        """An abort is sent as a command and also stored: one lost with Redis still stops its turn here."""
        running = self.runs.ids()
        if not running:
            return
        requested = await database_sync_to_async(
            lambda: list(Run.objects.filter(pk__in=running, abort_requested=True).values_list("pk", flat=True))
        )()
        for run_id in requested:
            if self.runs.abort(run_id):
                log.info("run %s aborted from its stored request", run_id)

    async def _resume_expired_control(self) -> None:
        """A holder whose control expired (their web process died) cannot hand it back: let the agent go on."""
        assert self._redis is not None
        for conversation_id, state in self.people.control.items():
            if not state.released.is_set() and not await self._redis.exists(f"hive:control:{conversation_id}"):
                log.warning("control of conversation %s expired; the agent goes on", conversation_id)
                state.set(paused=False, holder=None)

    async def reap_orphans(self) -> list[int]:
        """Fail runs whose worker died mid-turn; send queued runs stranded on a dead worker's queue elsewhere."""
        reaped = await database_sync_to_async(reap_once)(also_alive=self.worker_id)
        return list(reaped.failed)

    async def _reap_forever(self) -> None:
        while True:
            try:
                await self.reap_orphans()
            except Exception:
                log.exception("orphan sweep failed")
            await asyncio.sleep(settings.HIVE_REAP_PERIOD_S)

    # -- commands from the web (abort, live input) ---------------------------------------------------
    async def _listen_commands(self) -> None:
        while True:
            try:
                message = await self.channel.receive()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("command channel failed; retrying")
                await asyncio.sleep(0.5)
                continue
            command = message.get("command")
            if not command:
                continue
            conversation_id = command.get("conversation_id")
            self.handle_command(command, int(conversation_id) if conversation_id is not None else None)

    def handle_command(self, command: Command, conversation_id: int | None = None) -> None:
        # Commands come over Redis: a malformed one is ignored (`get`), never stops the listener.
        if "type" not in command:
            return
        if command["type"] == "run.abort":
            self.runs.abort(int(command.get("run_id", 0)))
        elif command["type"] == "input" and conversation_id is not None:
            self._spawn(self.sessions.replay_input(conversation_id, dict(command.get("input") or {})))
        elif command["type"] == "confirmation.answer":
            self.people.answer(int(command.get("id", 0)), bool(command.get("approved")))
        elif command["type"] == "control.changed" and conversation_id is not None:
            self.people.control_state(conversation_id).set(
                paused=bool(command.get("paused")), holder=command.get("holder")
            )
        elif command["type"] == "viewers.changed" and conversation_id is not None:
            self._spawn(self.sessions.refresh_viewers(conversation_id))
        elif command["type"] == "session.discard" and conversation_id is not None:
            self._spawn(self.sessions.discard(conversation_id))
        elif command["type"] == "profile.changed" and conversation_id is not None:
            self._spawn(self.sessions.profile_changed(conversation_id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._commands.add(task)
        task.add_done_callback(self._commands.discard)


_runtime: WorkerRuntime | None = None
_runtime_lock = threading.Lock()


def runtime_start(*, hostname: str) -> WorkerRuntime:
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            runtime = WorkerRuntime(hostname)
            runtime.start()
            _runtime = runtime
        return _runtime


def runtime_get() -> WorkerRuntime:
    return _runtime if _runtime is not None else runtime_start(hostname=os.uname().nodename)


def runtime_end_runs() -> None:
    if _runtime is not None:
        _runtime.end_runs()


def runtime_stop() -> None:
    global _runtime
    with _runtime_lock:
        if _runtime is not None:
            _runtime.stop()
            _runtime = None
