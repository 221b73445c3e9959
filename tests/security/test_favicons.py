"""Tab icons reach viewers only as inline images: a URL on the page's origin (or anywhere) is never handed to the
dashboard to load, so a page cannot make a viewer's browser request an address of its choosing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from browser_pool.types import TabInfo
from webapp.conversations.browser_services import browser_session_set_tabs
from webapp.conversations.models import Conversation

pytestmark = pytest.mark.django_db


def test_only_inline_icons_are_passed_to_viewers(api: APIClient, conversation: Conversation) -> None:
    inline = "data:image/png;base64,iVBORw0KGgo="
    browser_session_set_tabs(
        conversation_id=conversation.pk,
        tabs=[
            TabInfo(
                id="t1", title="A", url="https://a.example/", favicon="http://127.0.0.1:6379/favicon.ico", active=True
            ),
            TabInfo(id="t2", title="B", url="https://b.example/", favicon=inline),
            TabInfo(id="t3", title="C", url="https://c.example/", favicon="javascript:alert(1)"),
        ],
    )
    tabs = {tab["id"]: tab for tab in api.get(f"/api/conversations/{conversation.pk}/tabs/").json()}
    assert tabs["t1"]["favicon"] == ""
    assert tabs["t2"]["favicon"] == inline
    assert tabs["t3"]["favicon"] == ""
