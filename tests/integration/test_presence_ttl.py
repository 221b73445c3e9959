"""Presence and control live in Redis with an expiry that the sockets behind them refresh: a web process that dies
leaves no viewer listed and no one holding the browser for longer than the TTL."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from webapp.conversations import live
from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.sharing import control

pytestmark = pytest.mark.django_db


def test_presence_expires_unless_refreshed(
    user: User, conversation: Conversation, settings: Any, redis_url: str
) -> None:
    settings.HIVE_PRESENCE_TTL_S = 60
    key = placement.viewers_key(conversation.pk)
    live.viewer_joined(conversation_id=conversation.pk, channel_name="chan.alive", user=user, role="owner")
    assert 0 < placement.client().ttl(key) <= 60
    # A socket of a web process that died: its entry was last refreshed long ago.
    dead = {"user_id": user.pk, "username": "ghost", "role": "viewer", "since": 0, "seen": time.time() - 600}
    placement.client().hset(key, "chan.dead", json.dumps(dead))
    assert set(live.connections(conversation_id=conversation.pk)) == {"chan.alive"}
    assert placement.client().hget(key, "chan.dead") is None, "the stale entry is removed"
    placement.client().expire(key, 5)
    assert live.viewer_seen(conversation_id=conversation.pk, channel_name="chan.alive")
    assert placement.client().ttl(key) > 5, "refreshing puts the expiry back"
    assert not live.viewer_seen(conversation_id=conversation.pk, channel_name="chan.gone")


def test_control_expires_unless_its_holder_refreshes_it(
    user: User, conversation: Conversation, settings: Any, redis_url: str
) -> None:
    settings.HIVE_PRESENCE_TTL_S = 60
    control.control_take(conversation_id=conversation.pk, user=user, access="owner")
    key = control.control_key(conversation.pk)
    assert 0 < placement.client().ttl(key) <= 60
    placement.client().expire(key, 5)
    control.control_refresh(conversation_id=conversation.pk, user_id=user.pk + 1000)
    assert placement.client().ttl(key) <= 5, "someone else cannot keep it"
    control.control_refresh(conversation_id=conversation.pk, user_id=user.pk)
    assert placement.client().ttl(key) > 5
    control.control_release(conversation_id=conversation.pk, user=user, access="owner")
