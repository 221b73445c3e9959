"""/healthz answers while the process lives; /readyz says whether work can be done (database, Redis, a worker with
room), as JSON, 503 when not."""

from __future__ import annotations

import json

import pytest
import redis
from django.test import Client

from webapp.core import placement

pytestmark = pytest.mark.django_db


def test_healthz_answers() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.usefixtures("no_main_worker")  # a live worker would announce itself again meanwhile
def test_readyz_wants_a_worker_with_room(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    client.delete(*client.keys("hive:worker:*") or ["none"])
    without = Client().get("/readyz")
    assert without.status_code == 503
    body = without.json()
    assert body["ready"] is False
    assert body["checks"]["database"]["ok"]
    assert body["checks"]["redis"]["ok"]
    assert body["checks"]["workers"] == {"ok": False, "alive": 0, "free_sessions": 0}

    info = {"queue": "hive.worker.w1", "capacity": 4, "sessions": 1, "turns": 0}
    client.set(f"{placement.WORKER_KEY_PREFIX}w1", json.dumps(info), ex=30)
    try:
        ready = Client().get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"]["workers"] == {"ok": True, "alive": 1, "free_sessions": 3}
    finally:
        client.delete(f"{placement.WORKER_KEY_PREFIX}w1")
