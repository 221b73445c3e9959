"""The conversation websocket: forwards the group's events; relays live-view input to the session's worker."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from webapp.conversations.selectors import conversation_can_view, conversation_get
from webapp.conversations.serializers import ConversationOutput
from webapp.core.events import conversation_group, session_group

FORBIDDEN = 4403
INPUT_KINDS = {"click", "move", "down", "up", "wheel", "key", "text"}


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
        user = self.scope.get("user")
        if user is None or not await _can_view(user, self.conversation_id):
            await self.close(code=FORBIDDEN)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "conversation": await _conversation_payload(user, self.conversation_id)})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "detail": "Send a JSON object with a 'type'."})
            return
        kind = content.get("type")
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "input":
            await self._relay_input(content)
        else:
            await self.send_json({"type": "error", "detail": f"Unknown message type: {kind!r}."})

    async def _relay_input(self, content: dict[str, Any]) -> None:
        if content.get("kind") not in INPUT_KINDS:
            await self.send_json({"type": "error", "detail": f"Unknown input kind; use one of {sorted(INPUT_KINDS)}."})
            return
        command = {"type": "input", "input": {k: v for k, v in content.items() if k != "type"}}
        await self.channel_layer.group_send(
            session_group(self.conversation_id), {"type": "session.command", "command": command}
        )

    async def conversation_event(self, message: dict[str, Any]) -> None:
        await self.send_json(message["event"])
