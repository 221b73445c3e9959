"""Adding a tab to the conversation's context reads its main content in real Chromium and saves it with the
tab; reading it again after the page changed updates it."""

from __future__ import annotations

from datetime import datetime

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from tests.support.processes import wait_until
from tests.support.runs import act
from webapp.conversations.models import TabContent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]


def _read(client: APIClient, conversation_id: int, tab_id: str, after: datetime | None = None) -> TabContent:
    response = client.post(f"/api/conversations/{conversation_id}/tabs/{tab_id}/content/")
    assert response.status_code == 202, response.content

    def saved() -> bool:
        item = TabContent.objects.filter(conversation_id=conversation_id, tab_id=tab_id).first()
        if item is None or item.extracted_at is None:
            return False
        return after is None or item.extracted_at > after

    wait_until(saved, 30, "the tab's content to be saved")
    return TabContent.objects.get(conversation_id=conversation_id, tab_id=tab_id)


def test_a_tab_added_to_the_context_is_read_saved_and_refreshed(pages: str) -> None:
    conversation = ConversationFactory()
    client = APIClient()
    client.force_login(conversation.owner)
    assert act(client, conversation.pk, "navigate", url=f"{pages}/article.html").status == "succeeded"
    tabs = client.get(f"/api/conversations/{conversation.pk}/tabs/").json()
    assert len(tabs) == 1
    tab_id = tabs[0]["id"]
    assert tabs[0]["context"] is None

    first = _read(client, conversation.pk, tab_id)
    assert first.title == "The quiet return of the night train"
    assert first.url.endswith("/article.html")
    assert "sleeper services are coming back" in first.content
    assert "Edition one." in first.content
    assert "Subscribe now" not in first.content, "navigation is noise"
    assert "Cookie settings" not in first.content, "the footer is noise"
    listed = client.get(f"/api/conversations/{conversation.pk}/tabs/").json()[0]["context"]
    assert listed["length"] == first.length
    assert listed["extracted_at"] is not None

    assert act(client, conversation.pk, "navigate", url=f"{pages}/article.html?v=2").status == "succeeded"
    second = _read(client, conversation.pk, tab_id, after=first.extracted_at)
    assert "Edition 2, with a new timetable for the winter." in second.content
    assert "Edition one." not in second.content
