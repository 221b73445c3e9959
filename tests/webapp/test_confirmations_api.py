from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory
from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, ModelCall, Run
from webapp.runs.services import confirmation_request, model_call_record, run_start
from webapp.runs.types import RunMetadata

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(conversation: Conversation) -> Confirmation:
    run = Run.objects.create(conversation=conversation)
    run_start(run_id=run.pk, worker_id="w1")
    return confirmation_request(
        run_id=run.pk,
        step_id=None,
        action="click",
        arguments={"index": 3},
        reason="Pay now on a checkout page",
        timeout_s=60,
    )


def test_a_confirmation_pauses_the_run_and_shows_with_it(api: APIClient, waiting: Confirmation) -> None:
    run = api.get(f"/api/runs/{waiting.run_id}/").json()
    assert run["status"] == "waiting"
    assert [c["reason"] for c in run["confirmations"]] == ["Pay now on a checkout page"]


def test_approve_once_then_a_second_answer_is_refused(api: APIClient, waiting: Confirmation) -> None:
    ok = api.post(f"/api/confirmations/{waiting.pk}/answer/", {"approve": True}, format="json")
    assert ok.status_code == 200
    assert ok.json()["status"] == "approved"
    again = api.post(f"/api/confirmations/{waiting.pk}/answer/", {"approve": False}, format="json")
    assert again.status_code == 409
    assert Confirmation.objects.get(pk=waiting.pk).status == "approved"


def test_an_expired_confirmation_cannot_be_approved(api: APIClient, waiting: Confirmation) -> None:
    Confirmation.objects.filter(pk=waiting.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = api.post(f"/api/confirmations/{waiting.pk}/answer/", {"approve": True}, format="json")
    assert response.status_code == 409
    assert "expired" in response.json()["detail"]
    assert Confirmation.objects.get(pk=waiting.pk).status == "expired"


def test_bad_or_foreign_answers_change_nothing(api: APIClient, waiting: Confirmation) -> None:
    assert (
        api.post(f"/api/confirmations/{waiting.pk}/answer/", {"approve": "perhaps"}, format="json").status_code == 400
    )
    assert api.post("/api/confirmations/424242/answer/", {"approve": True}, format="json").status_code == 404
    stranger = APIClient()
    stranger.force_login(UserFactory())
    assert (
        stranger.post(f"/api/confirmations/{waiting.pk}/answer/", {"approve": True}, format="json").status_code == 404
    )
    assert Confirmation.objects.get(pk=waiting.pk).status == "pending"


def test_the_debug_endpoint_returns_the_exact_payloads(api: APIClient, conversation: Conversation) -> None:
    metadata: RunMetadata = {"shared_tabs": [{"id": "t1", "title": "A", "url": "http://a"}]}
    run = Run.objects.create(conversation=conversation, metadata=metadata)
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    model_call_record(run_id=run.pk, request=request, response={"content": "hello"}, duration_ms=12)
    body = api.get(f"/api/runs/{run.pk}/debug/").json()
    assert body["shared_tabs"] == [{"id": "t1", "title": "A", "url": "http://a"}]
    assert body["model_calls"][0]["request"] == request
    assert ModelCall.objects.count() == 1
    stranger = APIClient()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/api/runs/{run.pk}/debug/").status_code == 404


def test_ending_a_run_expires_its_pending_confirmation(waiting: Confirmation) -> None:
    from webapp.runs.services import run_finish

    run_finish(run_id=waiting.run_id, status="aborted", error="Stopped by the user.")
    assert Confirmation.objects.get(pk=waiting.pk).status == "expired"
