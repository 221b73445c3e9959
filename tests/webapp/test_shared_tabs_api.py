"""Shared tabs per send: ids validated, stored on the run, replaced by the next send."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from webapp.conversations.models import Conversation, Message, TabContent
from webapp.runs.models import Run

pytestmark = pytest.mark.django_db


def _tab(conversation: Conversation, tab_id: str, title: str) -> TabContent:
    return TabContent.objects.create(
        conversation=conversation, tab_id=tab_id, title=title, url=f"http://example.test/{tab_id}",
        content=f"text of {title}", length=10, extracted_at=timezone.now(),
    )  # fmt: skip


def _send(api: APIClient, conversation: Conversation, **body: object) -> Any:
    return api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi", **body}, format="json")


def _finish(run_id: int) -> None:
    Run.objects.filter(pk=run_id).update(status="succeeded")


def test_shared_tabs_are_stored_on_the_run_and_replaced_per_send(api: APIClient, conversation: Conversation) -> None:
    _tab(conversation, "t1", "Flights")
    _tab(conversation, "t2", "Hotels")
    first = _send(api, conversation, tab_ids=["t1", "t2"]).json()["run"]
    assert [t["id"] for t in first["shared_tabs"]] == ["t1", "t2"]
    assert first["shared_tabs"][0] == {"id": "t1", "title": "Flights", "url": "http://example.test/t1"}
    _finish(first["id"])
    second = _send(api, conversation, tab_ids=["t2"]).json()["run"]
    assert [t["id"] for t in second["shared_tabs"]] == ["t2"]
    _finish(second["id"])
    third = _send(api, conversation).json()["run"]
    assert third["shared_tabs"] == []
    debug = api.get(f"/api/runs/{second['id']}/debug/").json()
    assert [t["id"] for t in debug["shared_tabs"]] == ["t2"]


@pytest.mark.parametrize("tab_ids", [["t9"], ["t1", "nope"], [""]])
def test_unknown_tab_ids_are_refused_and_nothing_is_sent(
    api: APIClient, conversation: Conversation, tab_ids: list[str]
) -> None:
    _tab(conversation, "t1", "Flights")
    response = _send(api, conversation, tab_ids=tab_ids)
    assert response.status_code == 400
    assert not Message.objects.filter(conversation=conversation).exists()
    assert not Run.objects.filter(conversation=conversation).exists()


def test_another_conversations_tabs_cannot_be_shared(api: APIClient, user: User) -> None:
    mine = ConversationFactory(owner=user)
    theirs = ConversationFactory(owner=UserFactory())
    _tab(theirs, "t1", "Their secret tab")
    response = _send(api, mine, tab_ids=["t1"])
    assert response.status_code == 400
    assert "Unknown tab ids" in response.json()["detail"]


def test_tab_content_is_readable_and_removable_by_its_owner_only(api: APIClient, conversation: Conversation) -> None:
    _tab(conversation, "t1", "Flights")
    body = api.get(f"/api/conversations/{conversation.pk}/tabs/t1/content/").json()
    assert body["content"] == "text of Flights"
    stranger = APIClient()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/api/conversations/{conversation.pk}/tabs/t1/content/").status_code == 404
    assert stranger.delete(f"/api/conversations/{conversation.pk}/tabs/t1/content/").status_code == 404
    assert api.delete(f"/api/conversations/{conversation.pk}/tabs/t1/content/").status_code == 204
    assert api.get(f"/api/conversations/{conversation.pk}/tabs/t1/content/").status_code == 404


def test_reading_a_tab_that_is_not_open_is_a_404(api: APIClient, conversation: Conversation) -> None:
    assert api.post(f"/api/conversations/{conversation.pk}/tabs/t7/content/").status_code == 404
