"""An MCP client counts against the same rate limits as the REST API: the same scope, rate and counter."""

from __future__ import annotations

import pytest
from rest_framework.throttling import ScopedRateThrottle

from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from webapp.core.throttles import _ScopeForUser, throttle_wait

pytestmark = pytest.mark.django_db


def test_mcp_calls_and_api_actions_share_one_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    cache.clear()
    rates = {"actions": "3/minute"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(_ScopeForUser, "THROTTLE_RATES", rates)
    conversation = ConversationFactory()
    owner = conversation.owner

    assert throttle_wait(user=owner, scope="actions") is None
    assert throttle_wait(user=owner, scope="actions") is None
    client = signed_in(owner)
    sent = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "scroll", "arguments": {"direction": "down"}},
        format="json",
    )
    assert sent.status_code == 202, sent.content
    refused = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "scroll", "arguments": {"direction": "down"}},
        format="json",
    )
    assert refused.status_code == 429
    wait = throttle_wait(user=owner, scope="actions")
    assert wait is not None
    assert 0 < wait <= 60
