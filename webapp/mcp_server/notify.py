"""`notifications/tools/list_changed` for sessions of the older handshake: the page's tools come and go with the page.

One watcher per session, started by its first call: it listens to the conversation's live events and tells the
client when the active tab's tools changed. The notification rides the session's standalone stream (the client's
GET); a session without one drops it, and the client sees the new tools when it lists them again. A watcher ends
when its session has made no call for HIVE_MCP_IDLE_S.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings

from webapp.core.events import EventMessage, ToolsUpdatedEvent, conversation_group

log = logging.getLogger(__name__)

LISTEN_S = 30.0


def _names(event: ToolsUpdatedEvent) -> frozenset[str]:
    return frozenset(str(t.get("name")) for t in event.get("tools") or [] if not t.get("shadowed"))


class ToolListWatchers:
    def __init__(self) -> None:
        self._watching: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._last_call: dict[str, float] = {}

    def called(self, session_id: str, conversation_id: int, session: Any) -> None:
        """A call in this session: keep it watched (and start watching its conversation on the first)."""
        self._last_call[session_id] = time.monotonic()
        current = self._watching.get(session_id)
        if current is not None and current[0] == conversation_id and not current[1].done():
            return
        if current is not None:
            current[1].cancel()
        task = asyncio.get_running_loop().create_task(self._watch(session_id, conversation_id, session))
        self._watching[session_id] = (conversation_id, task)

    async def _watch(self, session_id: str, conversation_id: int, session: Any) -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        group = conversation_group(conversation_id)
        channel = await layer.new_channel()
        shown: frozenset[str] | None = None
        try:
            await layer.group_add(group, channel)
            while time.monotonic() - self._last_call.get(session_id, 0.0) < settings.HIVE_MCP_IDLE_S:
                try:
                    message: EventMessage = await asyncio.wait_for(layer.receive(channel), LISTEN_S)
                except TimeoutError:
                    continue
                event = message.get("event")
                if not event or "type" not in event or event["type"] != "tools.updated":
                    continue
                names = _names(event)
                if names != shown:
                    shown = names
                    await session.send_tool_list_changed()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("tool list watcher of MCP session %s stopped", session_id[:12], exc_info=True)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(layer.group_discard(group, channel), 1.0)
            self._last_call.pop(session_id, None)
            if self._watching.get(session_id, (0, None))[1] is asyncio.current_task():
                self._watching.pop(session_id, None)


watchers = ToolListWatchers()
