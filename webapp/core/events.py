"""Publishing to a conversation's websocket group, and commands to the worker holding its session.

Events are published after the transaction that made them commits, so a client that re-reads the API
on an event always finds what the event announced. The channel layer may drop messages; anything that
must not be lost is in the database first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

# A live update waits at most this long: with Redis away, the Redis client's retries back off for seconds, and
# neither a request nor an agent's turn may wait for a message that is allowed to be lost.
LIVE_SEND_TIMEOUT_S = 1.0


async def group_send_bounded(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await asyncio.wait_for(layer.group_send(group, message), LIVE_SEND_TIMEOUT_S)


# A process with an event loop of its own (the worker) hands live updates to it without waiting: its services run
# on one database thread, and a Redis round trip per write made that thread the bottleneck under load.
Sender = Callable[[str, dict[str, Any]], None]
_sender: Sender | None = None


def set_sender(sender: Sender | None) -> None:
    global _sender
    _sender = sender


def _group_send(group: str, message: dict[str, Any]) -> None:
    if _sender is not None:
        _sender(group, message)
    else:
        async_to_sync(group_send_bounded)(group, message)


def conversation_group(conversation_id: int) -> str:
    return f"conversation-{conversation_id}"


def session_group(conversation_id: int) -> str:
    """The worker that holds a conversation's live browser session listens here."""
    return f"session-{conversation_id}"


def publish(conversation_id: int, event: dict[str, Any]) -> None:
    """Best effort: a live update that cannot be sent (Redis away) is logged, never fails the request or the run;
    clients re-read the API when they reconnect."""
    try:
        _group_send(conversation_group(conversation_id), {"type": "conversation.event", "event": event})
    except Exception as exc:
        log.warning("could not publish %s to conversation %s: %r", event.get("type"), conversation_id, exc)


def publish_on_commit(conversation_id: int, event: dict[str, Any]) -> None:
    transaction.on_commit(lambda: publish(conversation_id, event))


def command_session(conversation_id: int, command: dict[str, Any]) -> None:
    """Send a low-latency command (abort, input ...) to whichever worker holds the conversation's session."""
    command = {**command, "conversation_id": conversation_id}
    try:
        _group_send(session_group(conversation_id), {"type": "session.command", "command": command})
    except Exception as exc:
        log.warning("could not send %s to conversation %s's worker: %r", command.get("type"), conversation_id, exc)
