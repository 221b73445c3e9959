"""Nothing stays queued forever: a run whose dispatch failed (Redis away) or whose message was lost is sent again by
the reaper, one nobody takes for too long fails with a reason, and live-update failures never fail a request."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from webapp.conversations.models import Conversation
from webapp.runs import services
from webapp.runs.models import Run
from webapp.runs.services import NOT_PICKED_UP_ERROR, runs_requeue_stranded

pytestmark = pytest.mark.django_db


class Broker:
    def __init__(self) -> None:
        self.down = False
        self.sent: list[tuple[str, int, str | None]] = []

    def enqueue(self, task: str, run_id: int, *, queue: str | None = None) -> None:
        if self.down:
            raise ConnectionError("Redis is away")
        self.sent.append((task, run_id, queue))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    fake = Broker()
    monkeypatch.setattr(services, "enqueue", fake.enqueue)
    monkeypatch.setattr(services.placement, "queue_for_conversation", lambda conversation_id: "hive")
    return fake


def test_a_send_while_redis_is_away_is_accepted_and_sent_once_it_is_back(
    api: APIClient, conversation: Conversation, broker: Broker, django_capture_on_commit_callbacks: Any
) -> None:
    broker.down = True
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi"}, format="json")
    assert response.status_code == 201
    run = Run.objects.get()
    assert run.status == "queued"
    assert run.dispatched_at is None
    broker.down = False
    assert runs_requeue_stranded(alive_queues=[]) == [], "a run just created is still being dispatched"
    Run.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(seconds=10))
    with django_capture_on_commit_callbacks(execute=True):
        resent = runs_requeue_stranded(alive_queues=[])
    assert [r.pk for r in resent] == [run.pk]
    assert broker.sent == [("workers.tasks.run_turn", run.pk, "hive")]
    run.refresh_from_db()
    assert run.dispatched_at is not None


def test_a_lost_message_is_sent_again_and_a_run_nobody_takes_fails_with_why(
    api: APIClient, conversation: Conversation, broker: Broker, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.HIVE_QUEUED_RESEND_S = 60
    settings.HIVE_QUEUED_GIVE_UP_S = 900
    now = timezone.now()
    lost = Run.objects.create(conversation=conversation, queue="hive", dispatched_at=now - timedelta(seconds=120))
    other = ConversationFactory(owner=conversation.owner)  # one active run per conversation
    fresh = Run.objects.create(conversation=other, queue="hive", dispatched_at=now)
    with django_capture_on_commit_callbacks(execute=True):
        resent = runs_requeue_stranded(alive_queues=[])
    assert {r.pk for r in resent} == {lost.pk}
    assert fresh.pk not in {run_id for _, run_id, _ in broker.sent}

    Run.objects.filter(pk__in=[lost.pk, fresh.pk]).update(created_at=now - timedelta(seconds=1000))
    with django_capture_on_commit_callbacks(execute=True):
        runs_requeue_stranded(alive_queues=[])
    for run in Run.objects.filter(pk__in=[lost.pk, fresh.pk]):
        assert run.status == "failed"
        assert run.error == NOT_PICKED_UP_ERROR
    assert (
        api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "again"}, format="json").status_code
        == 201
    )


def test_a_live_update_that_cannot_be_sent_does_not_fail_the_request(
    api: APIClient,
    conversation: Conversation,
    broker: Broker,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    class DeadLayer:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("Redis is away")

    monkeypatch.setattr("webapp.core.events.get_channel_layer", lambda: DeadLayer())
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi"}, format="json")
    assert response.status_code == 201
    assert Run.objects.get().status == "queued"
