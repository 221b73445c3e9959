"""A burst of new conversations is spread over the workers, although their heartbeats (and the loads in them) are
seconds old; a conversation's later runs follow it to the worker it was placed on."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from webapp.core import placement


@pytest.fixture
def two_idle_workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, dict[str, Any]]]:
    tag = uuid.uuid4().hex[:6]
    workers = {
        f"a-{tag}": {"queue": f"hive.worker.a-{tag}", "capacity": 10, "sessions": 0, "turns": 0},
        f"b-{tag}": {"queue": f"hive.worker.b-{tag}", "capacity": 10, "sessions": 0, "turns": 0},
    }
    # Only these two are alive, whatever else the suite's Redis holds; everything else here is real Redis.
    monkeypatch.setattr(placement, "alive_workers", lambda: workers)
    yield workers
    conn = placement.client()
    conn.delete(*[placement.ASSIGNED_PREFIX + worker_id for worker_id in workers])


def test_a_burst_of_new_conversations_is_spread_evenly(two_idle_workers: dict[str, dict[str, Any]]) -> None:
    base = 9_000_000 + int(uuid.uuid4().int % 1_000_000) * 10
    queues = Counter(placement.queue_for_conversation(base + n) for n in range(10))

    assert sorted(queues.values()) == [5, 5], queues
    placement.client().delete(*[placement.session_home_key(base + n) for n in range(10)])


def test_a_placed_conversation_keeps_its_worker(two_idle_workers: dict[str, dict[str, Any]]) -> None:
    conversation = 8_000_000 + int(uuid.uuid4().int % 1_000_000)
    first = placement.queue_for_conversation(conversation)

    assert {placement.queue_for_conversation(conversation) for _ in range(5)} == {first}
    placement.client().delete(placement.session_home_key(conversation))
