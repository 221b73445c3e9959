"""Abuse limits: sign-in throttling, sign-up modes, per-user rate limits on what costs the server, and the
operator's quotas — each refusal a 429 (or 403) that says which limit and when it resets, changing nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import PASSWORD, ConversationFactory, UserFactory
from webapp.conversations.models import Conversation
from webapp.core.throttles import WriteThrottle
from webapp.llm.models import ModelProfile
from webapp.runs.models import Run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_sign_in_is_locked_after_repeated_failures(settings: object) -> None:
    settings.AXES_FAILURE_LIMIT = 3  # type: ignore[attr-defined]
    victim = UserFactory(username="victim")
    UserFactory(username="bystander")
    client = APIClient()
    answers = [
        client.post("/api/auth/login/", {"username": "victim", "password": "guess"}, format="json").status_code
        for _ in range(3)
    ]
    assert answers == [400, 400, 429], "the third failure reaches the limit"
    locked = client.post("/api/auth/login/", {"username": "victim", "password": PASSWORD}, format="json")
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.json()["detail"]
    other = client.post("/api/auth/login/", {"username": "bystander", "password": PASSWORD}, format="json")
    assert other.status_code == 200, "another account is not locked"
    assert victim.is_active


@pytest.mark.parametrize(
    ("mode", "invite", "status"), [("closed", "", 403), ("invite", "wrong", 403), ("invite", "k3y", 201)]
)
def test_signup_can_be_closed_or_by_invitation(settings: object, mode: str, invite: str, status: int) -> None:
    settings.HIVE_SIGNUP = mode  # type: ignore[attr-defined]
    settings.HIVE_SIGNUP_INVITES = ["k3y"]  # type: ignore[attr-defined]
    response = APIClient().post(
        "/api/auth/signup/", {"username": "newcomer", "password": "a-long-passphrase", "invite": invite}, format="json"
    )
    assert response.status_code == status, response.content
    assert User.objects.filter(username="newcomer").exists() is (status == 201)
    if status == 403:
        assert response.json()["detail"]


def test_actions_are_rate_limited_per_user(
    api: APIClient, conversation: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"actions": "2/minute"})
    path = f"/api/conversations/{conversation.pk}/actions/"
    first = api.post(path, {"action": "list_tabs", "arguments": {}}, format="json")
    assert first.status_code == 202
    Run.objects.filter(pk=first.json()["id"]).update(status="succeeded")
    second = api.post(path, {"action": "list_tabs", "arguments": {}}, format="json")
    Run.objects.filter(pk=second.json()["id"]).update(status="succeeded")
    third = api.post(path, {"action": "list_tabs", "arguments": {}}, format="json")
    assert third.status_code == 429
    assert "throttled" in third.json()["detail"]
    assert Run.objects.count() == 2
    assert api.get(f"/api/conversations/{conversation.pk}/runs/").status_code == 200, "reads are not limited"


def _send(api: APIClient, conversation: Conversation) -> object:
    return api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "go"}, format="json")


def test_runs_per_hour_quota(api: APIClient, conversation: Conversation, settings: object) -> None:
    settings.HIVE_QUOTA_RUNS_PER_HOUR = 2  # type: ignore[attr-defined]
    for _ in range(2):
        assert _send(api, conversation).status_code == 201  # type: ignore[attr-defined]
        Run.objects.update(status="succeeded")
    refused = _send(api, conversation)
    assert refused.status_code == 429  # type: ignore[attr-defined]
    body = refused.json()  # type: ignore[attr-defined]
    assert body["limit"] == "runs_per_hour"
    assert body["resets_at"]
    assert "2 runs in the last hour" in body["detail"]
    assert Run.objects.count() == 2


def test_concurrent_sessions_quota(api: APIClient, user: User, conversation: Conversation, settings: object) -> None:
    settings.HIVE_QUOTA_CONCURRENT_SESSIONS = 1  # type: ignore[attr-defined]
    assert _send(api, conversation).status_code == 201  # type: ignore[attr-defined]
    second = ConversationFactory(owner=user)
    refused = _send(api, second)
    assert refused.status_code == 429  # type: ignore[attr-defined]
    assert refused.json()["limit"] == "concurrent_sessions"  # type: ignore[attr-defined]


def test_tokens_per_day_quota_counts_the_servers_model_only(
    api: APIClient, user: User, conversation: Conversation, settings: object
) -> None:
    settings.HIVE_QUOTA_TOKENS_PER_DAY = 1000  # type: ignore[attr-defined]
    Run.objects.create(conversation=conversation, status="succeeded", prompt_tokens=900, completion_tokens=200)
    refused = _send(api, conversation)
    assert refused.status_code == 429  # type: ignore[attr-defined]
    assert refused.json()["limit"] == "tokens_per_day"  # type: ignore[attr-defined]
    own = ModelProfile.objects.create(owner=user, name="mine", base_url="https://api.example.com/v1", model="m")
    mine = ConversationFactory(owner=user, model_profile=own)
    assert _send(api, mine).status_code == 201, "the user's own model is theirs to spend"  # type: ignore[attr-defined]
