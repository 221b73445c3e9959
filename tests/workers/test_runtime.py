"""A worker's runtime started in this process (its own loop thread, browser pool, outbox and command channel, as a
Celery worker starts it, without Celery): it heartbeats its load with a lifetime and takes it back when it stops; its
reaper fails a run whose worker stopped heartbeating; its heartbeat stops a run whose abort command was lost and lets
the agent go on when a person's hold of the browser expired; what a run publishes from its loop reaches the group in
order."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

from tests.factories import ConversationFactory
from tests.support.processes import wait_until
from webapp.conversations.browser_selectors import browser_session_state
from webapp.core import placement
from webapp.core.events import conversation_group
from webapp.runs.models import Run, Step
from webapp.runs.services import ORPHANED_RUN_ERROR
from workers.runtime import WorkerRuntime
from workers.sink import WorkerSink

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def runtime(transactional_db: None) -> Iterator[WorkerRuntime]:
    worker = WorkerRuntime("runtime-test")
    worker.start()
    yield worker
    worker.stop()


def _heartbeat(worker_id: str) -> dict[str, Any] | None:
    raw = placement.client().get(placement.WORKER_KEY_PREFIX + worker_id)
    return json.loads(raw) if raw else None


def test_a_worker_heartbeats_its_load_with_a_lifetime_and_takes_it_back_when_it_stops(
    transactional_db: None, settings: Any
) -> None:
    runtime = WorkerRuntime("runtime-test")
    runtime.start()
    try:
        first = _heartbeat(runtime.worker_id)
        assert first is not None
        assert (first["id"], first["queue"], first["turns"]) == (runtime.worker_id, runtime.queue, 0)
        assert first["capacity"] == runtime.sessions.capacity
        lifetime = placement.client().ttl(placement.WORKER_KEY_PREFIX + runtime.worker_id)
        assert 0 < lifetime <= settings.HIVE_WORKER_HEARTBEAT_TTL_S
        assert runtime.worker_id in placement.alive_workers()
        wait_until(lambda: (_heartbeat(runtime.worker_id) or first)["ts"] > first["ts"], 10, "the next heartbeat")
    finally:
        runtime.stop()
    assert _heartbeat(runtime.worker_id) is None  # gone at once: no run is placed on a stopped worker
    assert runtime.worker_id not in placement.alive_workers()


def test_a_worker_whose_browsers_fail_to_close_still_takes_its_heartbeat_back(transactional_db: None) -> None:
    runtime = WorkerRuntime("runtime-test")
    runtime.start()
    real_stop = runtime.sessions.stop

    async def failing_stop(*, save: bool = True) -> None:
        await real_stop(save=save)  # closed for real, so nothing is left running; then it reports a failure
        raise RuntimeError("the browser did not close")

    runtime.sessions.stop = failing_stop  # type: ignore[method-assign]
    assert _heartbeat(runtime.worker_id) is not None
    runtime.stop()
    assert _heartbeat(runtime.worker_id) is None
    assert runtime.worker_id not in placement.alive_workers()


def test_a_stopping_worker_has_saved_its_browsers_when_it_stops_being_placed_runs(transactional_db: None) -> None:
    runtime = WorkerRuntime("runtime-test")
    runtime.start()
    conversation_id = ConversationFactory().pk
    runtime.open_session(conversation_id, timeout=60)

    async def changed_since_its_last_save() -> None:
        session = runtime.sessions.pool.get(str(conversation_id))
        assert session is not None
        session.typed_by("user:1").add("typed-since")

    runtime.on_loop(changed_since_its_last_save())
    assert runtime._redis is not None
    take_back = runtime._redis.delete
    saved_then: list[dict[str, Any] | None] = []

    async def delete(*keys: str) -> int:
        saved_then.append(await database_sync_to_async(browser_session_state)(conversation_id=conversation_id))
        return int(await take_back(*keys))

    runtime._redis.delete = delete  # type: ignore[method-assign,assignment]
    runtime.stop()
    assert _heartbeat(runtime.worker_id) is None
    # The next run of the conversation, placed on another worker from then on, starts from the browser as it was.
    assert [(saved or {}).get("typed_secrets") for saved in saved_then] == [{"user:1": ["typed-since"]}]


def test_the_reaper_fails_a_run_whose_worker_stopped_heartbeating_and_leaves_a_live_workers(
    runtime: WorkerRuntime,
) -> None:
    orphan = Run.objects.create(conversation=ConversationFactory(), status=Run.Status.RUNNING, worker_id="gone:1:dead")
    held = Run.objects.create(
        conversation=ConversationFactory(), status=Run.Status.RUNNING, worker_id=runtime.worker_id
    )

    def reaped() -> bool:
        orphan.refresh_from_db()
        return orphan.status == Run.Status.FAILED

    wait_until(reaped, 30, "the reaper to fail the orphaned run")
    assert orphan.error == ORPHANED_RUN_ERROR
    held.refresh_from_db()
    assert held.status == Run.Status.RUNNING


def test_a_stored_abort_stops_a_run_whose_abort_command_was_lost(runtime: WorkerRuntime) -> None:
    run = Run.objects.create(conversation=ConversationFactory(), status=Run.Status.RUNNING, worker_id=runtime.worker_id)

    async def hold() -> asyncio.Task[bool]:
        task = asyncio.create_task(asyncio.Event().wait())  # a run in progress, waiting for the page
        runtime.runs.add(run.pk, task)
        return task

    task = runtime.loop_thread.run(hold())
    Run.objects.filter(pk=run.pk).update(abort_requested=True)  # the web stored it; its command never arrived

    async def stopped() -> bool:
        return task.cancelled() and runtime.runs.was_aborted(run.pk)

    wait_until(lambda: runtime.loop_thread.run(stopped()), 10, "the heartbeat to stop the run")


def test_an_expired_hold_of_the_browser_lets_the_agent_go_on(runtime: WorkerRuntime) -> None:
    conversation_id = ConversationFactory().pk

    async def held_by_a_person() -> None:
        runtime.people.control_state(conversation_id).set(paused=True, holder="ada")

    runtime.loop_thread.run(held_by_a_person())  # the web process holding it died: its key in Redis expired

    async def released() -> bool:
        return runtime.people.control_state(conversation_id).released.is_set()

    assert not runtime.loop_thread.run(released())
    wait_until(lambda: runtime.loop_thread.run(released()), 10, "the heartbeat to hand the browser back")


def test_what_a_run_on_the_workers_loop_publishes_reaches_the_group_in_order(runtime: WorkerRuntime) -> None:
    conversation = ConversationFactory()
    run = Run.objects.create(
        conversation=conversation, started_by=conversation.owner, status=Run.Status.RUNNING, worker_id=runtime.worker_id
    )
    # A dashboard's socket in another process: a channel layer of its own, listening from outside the worker's loop.
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(conversation_group(conversation.pk), channel)

    async def a_run_publishing() -> None:
        # As a run does: streamed text from the loop, steps by services on the database thread after their commit.
        sink = WorkerSink(run_id=run.pk, conversation_id=conversation.pk)
        await sink.text_delta("Looking")
        await sink.flush()
        step_id = await sink.step_started(kind=Step.Kind.ACTION, action="navigate")
        await sink.step_finished(step_id, ok=True)
        await sink.text_delta("Found it")
        await sink.flush()

    async def received() -> list[str]:
        async with asyncio.timeout(10):
            return [(await layer.receive(channel))["event"]["type"] for _ in range(4)]

    # The worker's runtime publishes through its own outbox: the default publisher cannot send from its loop.
    runtime.on_loop(a_run_publishing(), timeout=30)
    assert async_to_sync(received)() == ["assistant.delta", "step.created", "step.updated", "assistant.delta"]
