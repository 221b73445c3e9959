"""Beyond what the workers take, runs wait in a bounded queue: each waiting run says its place in it, and past the
bound a new message is refused with a 429 that says why, storing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from webapp.runs.services import run_finish

pytestmark = pytest.mark.django_db


def _send(conversation: Conversation, text: str) -> Any:
    client = APIClient()
    client.force_login(conversation.owner)
    return client.post(f"/api/conversations/{conversation.pk}/messages/", {"content": text}, format="json")


def _position(conversation: Conversation, run_id: int) -> int | None:
    client = APIClient()
    client.force_login(conversation.owner)
    return client.get(f"/api/runs/{run_id}/").json()["queue_position"]


def test_waiting_runs_know_their_place_and_a_full_queue_refuses_more(settings: Any) -> None:
    settings.HIVE_QUEUE_LIMIT = 2
    first, second, third = ConversationFactory(), ConversationFactory(), ConversationFactory()

    one = _send(first, "first in line")
    two = _send(second, "second in line")
    assert (one.status_code, two.status_code) == (201, 201)
    assert one.json()["run"]["queue_position"] == 1
    assert two.json()["run"]["queue_position"] == 2

    refused = _send(third, "one too many")
    assert refused.status_code == 429
    assert refused.json()["limit"] == "queue"
    assert "at capacity" in refused.json()["detail"]
    assert not third.messages.exists(), "a refused message is not stored"
    assert not Run.objects.filter(conversation=third).exists()

    run_finish(run_id=one.json()["run"]["id"], status=Run.Status.SUCCEEDED)
    assert _position(first, one.json()["run"]["id"]) is None
    assert _position(second, two.json()["run"]["id"]) == 1
    assert _send(third, "now there is room").status_code == 201
