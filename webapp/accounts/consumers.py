"""The signed-in user's own websocket, `/ws/me/`: what concerns them beyond the conversation they have open.

It forwards the events published to the user's group (`webapp.core.events.publish_to_user`): a conversation
shared with them, a role changed, a share revoked or a shared conversation deleted, so their conversation list
follows without a reload. It carries nothing from the client but pings.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from webapp.core import json_input
from webapp.core.events import UserEventMessage, user_group

FORBIDDEN = 4403


class UserConsumer(AsyncJsonWebsocketConsumer):
    group: str

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=FORBIDDEN)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        try:
            content = json_input.loads(text_data or "")
        except ValueError as exc:
            await self.send_json({"type": "error", "detail": f"Malformed message: {exc}"})
            return
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "detail": "This socket only takes pings."})

    async def user_event(self, message: UserEventMessage) -> None:
        await self.send_json(message["event"])
