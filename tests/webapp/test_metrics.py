"""Prometheus metrics: off without a token, refused with a wrong one, and with it the figures an operator watches —
runs by status, tokens, step and model latency, pool sessions, queue depth, the firewall's refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from django.test import Client

from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.runs.models import ModelCall, Run, Step

pytestmark = pytest.mark.django_db


def test_metrics_are_off_without_a_token_and_refused_with_a_wrong_one(settings: Any) -> None:
    settings.HIVE_METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    settings.HIVE_METRICS_TOKEN = "s3cret"
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer nope").status_code == 401
    assert Client().get("/metrics").status_code == 401


def test_the_figures_an_operator_watches(settings: Any, conversation: Conversation, redis_url: str) -> None:
    settings.HIVE_METRICS_TOKEN = "s3cret"
    done = Run.objects.create(conversation=conversation, status="succeeded", prompt_tokens=120, completion_tokens=30)
    Step.objects.create(run=done, index=0, kind="action", action="click", status="succeeded", duration_ms=80)
    Step.objects.create(run=done, index=1, kind="action", action="navigate", status="succeeded", duration_ms=700)
    ModelCall.objects.create(run=done, index=0, request={}, response={}, duration_ms=1200)
    client = redis.Redis.from_url(redis_url)
    info = {"queue": "hive.worker.m1", "capacity": 10, "sessions": 4, "turns": 1, "egress_blocked": 7}
    client.set(f"{placement.WORKER_KEY_PREFIX}m1", json.dumps(info), ex=30)
    client.rpush("hive.worker.m1", "a-task", "another")  # the worker's own queue: nothing else uses it
    try:
        text = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").content.decode()
    finally:
        client.delete(f"{placement.WORKER_KEY_PREFIX}m1", "hive.worker.m1")
    assert 'hive_runs{status="succeeded"} 1.0' in text
    assert 'hive_tokens_total{kind="prompt"} 120.0' in text
    assert 'hive_step_duration_seconds_bucket{le="0.1"} 1.0' in text
    assert 'hive_step_duration_seconds_bucket{le="1.0"} 2.0' in text
    assert "hive_step_duration_seconds_count 2.0" in text
    assert 'hive_model_call_duration_seconds_bucket{le="2.5"} 1.0' in text
    assert 'hive_pool_sessions{state="free",worker="m1"} 6.0' in text
    assert 'hive_egress_blocked_total{worker="m1"} 7.0' in text
    assert 'hive_queue_depth{queue="hive.worker.m1"} 2.0' in text
    assert 'hive_queue_depth{queue="hive"}' in text
