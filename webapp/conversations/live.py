"""Who is watching a conversation's live view, and bringing its browser session up for them.

`hive:viewers:<conversation id>` is a Redis hash: one field per open websocket (its channel name) holding
`{user_id, username, role, since, seen, live}`. It drives the worker's streaming (someone watches the live view:
a socket past its owner's live-sessions quota is listed with `live` false and does not count), the presence list,
and cutting a teammate's sockets when their access ends.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Final

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User

from webapp.conversations.types import PresenceViewer, ViewerEntry
from webapp.core import placement
from webapp.core.events import AccessChangedMessage, command_session
from webapp.core.queue import enqueue

OPEN_SESSION_TASK = "workers.tasks.open_session"
EXTRACT_TAB_TASK = "workers.tasks.extract_tab"
# The message a consumer gets on its own channel when its user's access to the conversation changed.
ACCESS_CHANGED: Final = "access.changed"


def viewer_joined(*, conversation_id: int, channel_name: str, user: User, role: str, live: bool = True) -> None:
    now = time.time()
    info: ViewerEntry = {
        "user_id": user.pk,
        "username": user.get_username(),
        "role": role,
        "since": now,
        "seen": now,
        "live": live,
    }
    key = placement.viewers_key(conversation_id)
    with placement.client().pipeline() as pipe:
        pipe.hset(key, channel_name, json.dumps(info))
        pipe.expire(key, settings.HIVE_PRESENCE_TTL_S)
        pipe.execute()
    if live:
        session_live_ensure(conversation_id=conversation_id)


def viewer_live_set(*, conversation_id: int, channel_name: str) -> None:
    """A socket that watched messages only now streams the live browser too (its owner's quota has room again)."""
    key = placement.viewers_key(conversation_id)
    raw = placement.client().hget(key, channel_name)
    if raw is not None:
        placement.client().hset(key, channel_name, json.dumps({**json.loads(raw), "live": True}))
    session_live_ensure(conversation_id=conversation_id)


def viewer_seen(*, conversation_id: int, channel_name: str) -> bool:
    """The socket is still there: refresh its entry (and the hash's expiry). False when its entry is gone."""
    key = placement.viewers_key(conversation_id)
    conn = placement.client()
    raw = conn.hget(key, channel_name)
    if raw is None:
        return False
    with conn.pipeline() as pipe:
        pipe.hset(key, channel_name, json.dumps({**json.loads(raw), "seen": time.time()}))
        pipe.expire(key, settings.HIVE_PRESENCE_TTL_S)
        pipe.execute()
    return True


def viewer_left(*, conversation_id: int, channel_name: str) -> None:
    placement.client().hdel(placement.viewers_key(conversation_id), channel_name)
    command_session(conversation_id, {"type": "viewers.changed"})


def viewer_role_set(*, conversation_id: int, channel_name: str, role: str) -> None:
    key = placement.viewers_key(conversation_id)
    raw = placement.client().hget(key, channel_name)
    if raw is not None:
        placement.client().hset(key, channel_name, json.dumps({**json.loads(raw), "role": role}))


def viewer_frames_set(*, conversation_id: int, channel_name: str, wanted: bool) -> None:
    """Whether this socket takes live-view frames; the worker holding the session is told to look again."""
    key = placement.viewers_key(conversation_id)
    raw = placement.client().hget(key, channel_name)
    if raw is None:
        return
    placement.client().hset(key, channel_name, json.dumps({**json.loads(raw), "frames": wanted}))
    command_session(conversation_id, {"type": "viewers.changed"})


def viewer_count(*, conversation_id: int) -> int:
    """The sockets that stream the conversation's live browser: live (within their owner's quota) and taking frames
    (encoding frames for nobody costs the browser and every hop after)."""
    return sum(
        1
        for info in connections(conversation_id=conversation_id).values()
        if info.get("live", True) and info.get("frames", True)
    )


def connections(*, conversation_id: int) -> dict[str, ViewerEntry]:
    """Every open websocket on the conversation, by channel name."""
    key = placement.viewers_key(conversation_id)
    conn = placement.client()
    found: dict[str, ViewerEntry] = {
        (channel.decode() if isinstance(channel, bytes) else channel): json.loads(info)
        for channel, info in conn.hgetall(key).items()
    }
    # Sockets of a web process that died stop refreshing their entries: past the TTL they are gone.
    stale_before = time.time() - settings.HIVE_PRESENCE_TTL_S
    stale = [channel for channel, info in found.items() if float(info.get("seen", info.get("since", 0))) < stale_before]
    if stale:
        conn.hdel(key, *stale)
    return {channel: info for channel, info in found.items() if channel not in stale}


def presence(*, conversation_id: int) -> list[PresenceViewer]:
    """Who is watching, once per person (several tabs count once, from the first), earliest first."""
    people: dict[int, ViewerEntry] = {}
    for info in connections(conversation_id=conversation_id).values():
        seen = people.get(info["user_id"])
        if seen is None or info["since"] < seen["since"]:
            people[info["user_id"]] = info
    return [
        {
            "username": info["username"],
            "role": info.get("role", "viewer"),
            "since": datetime.fromtimestamp(info["since"], tz=UTC).isoformat(),
        }
        for info in sorted(people.values(), key=lambda info: info["since"])
    ]


def user_connected(*, conversation_id: int, user_id: int) -> bool:
    return any(info["user_id"] == user_id for info in connections(conversation_id=conversation_id).values())


def access_changed_notify(*, conversation_id: int, user_id: int, role: str | None) -> None:
    """Tell each of the user's open websockets on the conversation its new access; None closes them (4403)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for channel, info in connections(conversation_id=conversation_id).items():
        if info["user_id"] == user_id:
            async_to_sync(layer.send)(channel, _access_changed(role))


def access_revoked_for_all(*, conversation_id: int) -> None:
    """Close every open websocket on the conversation (4403): it is gone, or nobody may watch it any more."""
    layer = get_channel_layer()
    if layer is None:
        return
    for channel in connections(conversation_id=conversation_id):
        async_to_sync(layer.send)(channel, _access_changed(None))


def _access_changed(role: str | None) -> AccessChangedMessage:
    return {"type": ACCESS_CHANGED, "role": role}


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
