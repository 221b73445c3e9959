"""A page's own text may hold characters a database refuses (a NUL, a lone UTF-16 surrogate): what the agent and
the user read from it is stored all the same, a lone surrogate shown as U+FFFD, and the step, the run and the tab's
saved content are not lost. tests/webapp/test_storable_text.py stores each kind of field directly."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from tests.support.processes import wait_until
from tests.support.runs import act, observation
from webapp.conversations.models import TabContent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]


def test_text_with_a_nul_and_a_lone_surrogate_is_stored_from_a_step_and_a_shared_tab(pages: str) -> None:
    conversation = ConversationFactory()
    client = APIClient()
    client.force_login(conversation.owner)
    opened = act(client, conversation.pk, "navigate", url=f"{pages}/odd_text.html")
    assert opened.status == "succeeded", opened.error

    read = act(client, conversation.pk, "execute_js", code="document.getElementById('notes').textContent")
    assert read.status == "succeeded", read.error
    stored = json.dumps(observation(read), ensure_ascii=False)
    assert "and a half \ufffd departs at noon." in stored, "the lone surrogate is shown as U+FFFD"
    shown = client.get(f"/api/runs/{read.pk}/").json()
    assert "departs at noon" in json.dumps(shown)

    tab_id = client.get(f"/api/conversations/{conversation.pk}/tabs/").json()[0]["id"]
    assert client.post(f"/api/conversations/{conversation.pk}/tabs/{tab_id}/content/").status_code == 202

    def saved() -> bool:
        return TabContent.objects.filter(conversation_id=conversation.pk, extracted_at__isnull=False).exists()

    wait_until(saved, 30, "the tab's content to be saved")
    content = TabContent.objects.get(conversation_id=conversation.pk)
    assert "\x00" not in content.content, "the reader keeps no NUL (it shows U+FFFD)"
    assert content.content.count("departs at noon.") == 8
    assert content.title.endswith(" text \ufffd"), "the title's lone surrogate is shown as U+FFFD"
