"""Who is watching a conversation's live view, and bringing its browser session up for them."""

from __future__ import annotations

import json
import time
from typing import Any

from webapp.core import placement
from webapp.core.events import command_session
from webapp.core.queue import enqueue

OPEN_SESSION_TASK = "workers.tasks.open_session"
EXTRACT_TAB_TASK = "workers.tasks.extract_tab"


def viewer_joined(*, conversation_id: int, channel_name: str, user: Any) -> None:
    info = {"user_id": user.pk, "username": user.get_username(), "since": time.time()}
    placement.client().hset(placement.viewers_key(conversation_id), channel_name, json.dumps(info))
    session_live_ensure(conversation_id=conversation_id)


def viewer_left(*, conversation_id: int, channel_name: str) -> None:
    placement.client().hdel(placement.viewers_key(conversation_id), channel_name)
    command_session(conversation_id, {"type": "viewers.changed"})


def viewer_count(*, conversation_id: int) -> int:
    return int(placement.client().hlen(placement.viewers_key(conversation_id)))


def session_live_ensure(*, conversation_id: int) -> None:
    """Tell the session's worker someone is watching; with no live worker holding it, have one open it."""
    home = placement.session_home(conversation_id)
    if home is not None and home in placement.alive_workers():
        command_session(conversation_id, {"type": "viewers.changed"})
        return
    enqueue(OPEN_SESSION_TASK, conversation_id, queue=placement.queue_for_conversation(conversation_id))


def tab_content_request(*, conversation_id: int, tab_id: str) -> None:
    """Have the worker holding the session (or one that restores it) read the tab's main content."""
    enqueue(EXTRACT_TAB_TASK, conversation_id, tab_id, queue=placement.queue_for_conversation(conversation_id))
