"""Who holds the live browser's controls: one person at a time (the owner or a controller), or nobody.

While a person holds control, their live-view input is relayed and the agent pauses after its current step;
handing back lets it continue. The state lives in Redis (`hive:control:<conversation id>` = `{user_id,
username, since}`) so every web process agrees; each change is broadcast as `control.updated` and sent to
the worker holding the session as a `control.changed` command.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TypedDict

import redis
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework import status

from webapp.conversations import live
from webapp.core import placement
from webapp.core.events import command_session, publish_on_commit
from webapp.core.exceptions import ApplicationError
from webapp.runs.handoff import handoffs_hand_back
from webapp.sharing.selectors import access_require

CONTROL_PREFIX = "hive:control:"


class Holder(TypedDict):
    """Who holds a conversation's controls, as kept in Redis."""

    user_id: int
    username: str
    since: float  # time.time()


Change = Callable[[Holder | None], Holder | None]


def control_key(conversation_id: int) -> str:
    return f"{CONTROL_PREFIX}{conversation_id}"


def control_holder(*, conversation_id: int) -> Holder | None:
    return _holder(placement.client().get(control_key(conversation_id)))


def _holder(raw: bytes | str | None) -> Holder | None:
    holder: Holder | None = json.loads(raw) if raw else None
    return holder


def control_take(*, conversation_id: int, user: User, access: str | None) -> Holder:
    """Take the controls. The owner may take them from a controller; anyone else waits until they are free."""
    access_require(access=access, need="controller")
    mine: Holder = {"user_id": user.pk, "username": user.get_username(), "since": time.time()}

    def change(current: Holder | None) -> Holder | None:
        if current is not None and current["user_id"] != user.pk and access != "owner":
            raise ApplicationError(
                f"{current['username']} has control of the browser; ask them to hand it back.",
                status_code=status.HTTP_409_CONFLICT,
            )
        return current if current is not None and current["user_id"] == user.pk else mine

    return _compare_and_set(conversation_id, change)  # type: ignore[return-value]


def control_release(*, conversation_id: int, user: User, access: str | None) -> None:
    """Hand the controls back to the agent. The holder may; so may the owner, whoever holds them. A hand-back
    answers the agent's pending request for a person (ask_person) as done."""
    access_require(access=access, need="controller")
    held = False

    def change(current: Holder | None) -> Holder | None:
        nonlocal held
        if current is not None and current["user_id"] != user.pk and access != "owner":
            raise ApplicationError(
                f"{current['username']} has control of the browser, not you.", status_code=status.HTTP_409_CONFLICT
            )
        held = current is not None
        return None

    _compare_and_set(conversation_id, change)
    if held:
        handoffs_hand_back(conversation_id=conversation_id, user=user)


def control_refresh(*, conversation_id: int, user_id: int) -> None:
    """The holder is still connected: keep their control from expiring."""
    holder = control_holder(conversation_id=conversation_id)
    if holder is not None and holder["user_id"] == user_id:
        placement.client().expire(control_key(conversation_id), settings.HIVE_PRESENCE_TTL_S)


def control_release_if_held(*, conversation_id: int, user_id: int) -> None:
    """The user lost the controller role, or closed their last websocket: hand their control back."""
    _compare_and_set(conversation_id, lambda current: None if current and current["user_id"] == user_id else current)


def control_release_on_leave(*, conversation_id: int, user_id: int) -> None:
    if not live.user_connected(conversation_id=conversation_id, user_id=user_id):
        control_release_if_held(conversation_id=conversation_id, user_id=user_id)


def _compare_and_set(conversation_id: int, change: Change) -> Holder | None:
    """Apply `change(current) -> new` atomically; announce when the holder changed."""
    key = control_key(conversation_id)
    with placement.client().pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                current = _holder(raw)
                new = change(current)
                if new is current:
                    pipe.unwatch()
                    return current
                pipe.multi()
                if new is None:
                    pipe.delete(key)
                else:
                    # The holder's sockets refresh it (control_refresh); a holder whose web process died loses it.
                    pipe.set(key, json.dumps(new), ex=settings.HIVE_PRESENCE_TTL_S)
                pipe.execute()
                break
            except redis.WatchError:
                continue
    before = current["user_id"] if current else None
    after = new["user_id"] if new else None
    if before != after:
        _announce(conversation_id, new["username"] if new else None)
    return new


def _announce(conversation_id: int, holder: str | None) -> None:
    publish_on_commit(conversation_id, {"type": "control.updated", "holder": holder})
    command_session(conversation_id, {"type": "control.changed", "paused": holder is not None, "holder": holder})
