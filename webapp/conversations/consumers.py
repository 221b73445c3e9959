"""The conversation websocket.

It forwards the conversation group's events, relays live-view input to the worker holding the browser
session, keeps the list of who is watching, and paces live-view frames per viewer: a viewer gets the next
frame only after it acknowledged the previous one, and frames that arrive meanwhile replace each other
(latest frame wins), so a slow viewer never slows the agent or the other viewers.
"""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from webapp.conversations import live
from webapp.conversations.selectors import conversation_can_view, conversation_get
from webapp.conversations.serializers import ConversationOutput
from webapp.core.events import conversation_group, session_group

FORBIDDEN = 4403
INPUT_KINDS = {"click", "move", "down", "up", "wheel", "key", "text"}
# A viewer that has not acknowledged a frame for this long gets the next one anyway (a lost ack must not
# freeze its picture).
FRAME_ACK_TIMEOUT_S = 2.0


@database_sync_to_async
def _can_view(user: Any, conversation_id: int) -> bool:
    return conversation_can_view(user=user, conversation_id=conversation_id)


@database_sync_to_async
def _conversation_payload(user: Any, conversation_id: int) -> dict[str, Any]:
    return dict(ConversationOutput(conversation_get(user=user, conversation_id=conversation_id)).data)


class ConversationConsumer(AsyncJsonWebsocketConsumer):
    conversation_id: int
    group: str

    async def connect(self) -> None:
        self.conversation_id = int(self.scope["url_route"]["kwargs"]["conversation_id"])
        self.group = conversation_group(self.conversation_id)
        self._pending_frame: dict[str, Any] | None = None
        self._frame_sent_at = 0.0
        self._awaiting_ack = False
        self._watching = False
        user = self.scope.get("user")
        if user is None or not await _can_view(user, self.conversation_id):
            await self.close(code=FORBIDDEN)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "conversation": await _conversation_payload(user, self.conversation_id)})
        await sync_to_async(live.viewer_joined, thread_sensitive=False)(
            conversation_id=self.conversation_id, channel_name=self.channel_name, user=user
        )
        self._watching = True

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "_watching", False):
            await sync_to_async(live.viewer_left, thread_sensitive=False)(
                conversation_id=self.conversation_id, channel_name=self.channel_name
            )

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "detail": "Send a JSON object with a 'type'."})
            return
        kind = content.get("type")
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "frame.ack":
            await self._frame_acknowledged()
        elif kind == "input":
            await self._relay_input(content)
        else:
            await self.send_json({"type": "error", "detail": f"Unknown message type: {kind!r}."})

    async def _relay_input(self, content: dict[str, Any]) -> None:
        if content.get("kind") not in INPUT_KINDS:
            await self.send_json({"type": "error", "detail": f"Unknown input kind; use one of {sorted(INPUT_KINDS)}."})
            return
        command = {
            "type": "input",
            "conversation_id": self.conversation_id,
            "input": {k: v for k, v in content.items() if k != "type"},
        }
        await self.channel_layer.group_send(
            session_group(self.conversation_id), {"type": "session.command", "command": command}
        )

    # -- events from the group ---------------------------------------------------------------------------------

    async def conversation_event(self, message: dict[str, Any]) -> None:
        await self.send_json(message["event"])

    async def conversation_frame(self, message: dict[str, Any]) -> None:
        frame = message["frame"]
        if self._awaiting_ack and time.monotonic() - self._frame_sent_at < FRAME_ACK_TIMEOUT_S:
            self._pending_frame = frame
            return
        await self._send_frame(frame)

    async def _send_frame(self, frame: dict[str, Any]) -> None:
        self._awaiting_ack = True
        self._frame_sent_at = time.monotonic()
        await self.send_json({"type": "frame", **frame})

    async def _frame_acknowledged(self) -> None:
        frame, self._pending_frame = self._pending_frame, None
        if frame is None:
            self._awaiting_ack = False
            return
        await self._send_frame(frame)
