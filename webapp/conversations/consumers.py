"""The conversation websocket.

It forwards the conversation group's events, keeps the list of who is watching (presence), hands the live
browser's controls to one person at a time and relays only that person's input to the worker holding the
browser session, and paces live-view frames per viewer: a viewer gets the next frame only after it
acknowledged the previous one, and frames that arrive meanwhile replace each other (latest frame wins), so a
slow viewer never slows the agent or the other viewers. A socket that leaves a frame unacknowledged past
FRAME_ACK_TIMEOUT_S (a program that only follows events, a dashboard in a hidden browser tab) stops counting as
a viewer of frames until it acknowledges again, so the worker does not encode frames nobody looks at.

The owner, controllers and viewers may connect. A teammate whose access ends (the share is revoked, or it
expires) is disconnected at once with code 4403; a changed role applies at once too. A socket follows its account:
the role that control and input act on is at most `HIVE_SOCKET_RECHECK_S` old (read again from the database), and
every socket checks that often (and at once when told its account changed) that its session or token still signs
its user in, so signing out, revoking the token or deactivating the user closes it with 4403 too.

Strangers share the workers: a socket streams the live browser only while the conversation's owner is within
`HIVE_QUOTA_CONCURRENT_SESSIONS` live sessions (past it the socket watches messages and steps and is told why, and
streams once there is room), and relays at most `HIVE_LIVE_INPUT_PER_S` input events a second (webapp.conversations
.pacing).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from webapp.conversations import live
from webapp.conversations.models import Conversation
from webapp.conversations.pacing import InputPacer
from webapp.conversations.selectors import conversation_get
from webapp.conversations.serializers import ConversationOutput
from webapp.conversations.ws_auth import Credential, credential_of, credential_valid
from webapp.core import json_input
from webapp.core.events import (
    AccessChangedMessage,
    AccountChangedMessage,
    CommandMessage,
    Event,
    EventMessage,
    Frame,
    FrameMessage,
    HelloEvent,
    LiveRoomMessage,
    SocketEvent,
    account_group,
    conversation_group,
    event_message,
    live_waiting_group,
    session_group,
)
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.runs.quotas import QuotaExceededError, live_session_claim, live_session_release, live_session_seen
from webapp.sharing import control
from webapp.sharing.selectors import RANK, access_changes_at, conversation_access

log = logging.getLogger(__name__)

FORBIDDEN = 4403
INPUT_KINDS = {"click", "move", "down", "up", "wheel", "key", "text"}
# A viewer that has not acknowledged a frame for this long is not looking at them: it stops taking frames until
# its next acknowledgement.
FRAME_ACK_TIMEOUT_S = 2.0
T = TypeVar("T")


async def _redis(func: Callable[..., T], **kwargs: Any) -> T:
    """A Redis call off the event loop, without waiting for the thread that serialises ORM work."""
    return await sync_to_async(func, thread_sensitive=False)(**kwargs)


@database_sync_to_async
def _access(user: Any, conversation_id: int) -> str | None:
    return conversation_access(user=user, conversation_id=conversation_id)


@database_sync_to_async
def _access_now(credential: Credential | None, conversation_id: int) -> str | None:
    """The access as the database has it now, for a connection whose credential still signs its user in."""
    if credential is None or not credential_valid(credential):
        return None
    user = User.objects.filter(pk=credential.user_id, is_active=True).first()
    return conversation_access(user=user, conversation_id=conversation_id) if user is not None else None


@database_sync_to_async
def _owner_of(conversation_id: int) -> int | None:
    return Conversation.objects.filter(pk=conversation_id).values_list("owner_id", flat=True).first()


@database_sync_to_async
def _claim_live(owner_id: int, conversation_id: int, channel_name: str) -> str:
    """Why this socket may not stream the live browser ("" when it may)."""
    try:
        live_session_claim(owner_id=owner_id, conversation_id=conversation_id, channel_name=channel_name)
    except QuotaExceededError as refused:
        return refused.message
    return ""


@database_sync_to_async
def _access_changes_at(user: Any, conversation_id: int) -> Any:
    return access_changes_at(user_id=user.pk, conversation_id=conversation_id)


@database_sync_to_async
def _conversation_payload(user: Any, conversation_id: int) -> JsonObject:
    return dict(ConversationOutput(conversation_get(user=user, conversation_id=conversation_id)).data)


class ConversationConsumer(AsyncJsonWebsocketConsumer):
    conversation_id: int
    group: str
    role: str | None

    async def connect(self) -> None:
        self.conversation_id = int(self.scope["url_route"]["kwargs"]["conversation_id"])
        self.group = conversation_group(self.conversation_id)
        self._pending_frame: Frame | None = None
        self._frame_sent_at = 0.0
        self._awaiting_ack = False
        self._frames_wanted = True
        self._watching = False
        self._live = False
        self._expiry: asyncio.Task[None] | None = None
        self.user = self.scope.get("user")
        self._credential = credential_of(self.scope)
        self.role = await _access(self.user, self.conversation_id) if self.user is not None else None
        owner_id = await _owner_of(self.conversation_id)
        if self.role is None or owner_id is None:
            await self.close(code=FORBIDDEN)
            return
        self._owner_id = owner_id
        self._role_checked_at = time.monotonic()
        self._pacer = InputPacer(settings.HIVE_LIVE_INPUT_PER_S, self._send_input, self._send_error)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(account_group(self.user.pk), self.channel_name)
        await self.accept()
        refusal = await _claim_live(self._owner_id, self.conversation_id, self.channel_name)
        self._live = not refusal
        if refusal:
            await self.channel_layer.group_add(live_waiting_group(self._owner_id), self.channel_name)
        await _redis(
            live.viewer_joined,
            conversation_id=self.conversation_id,
            channel_name=self.channel_name,
            user=self.user,
            role=self.role,
            live=self._live,
        )
        self._watching = True
        # A revoke that committed while this socket was registering did not find it in the viewers hash.
        role = await _access(self.user, self.conversation_id)
        if role is None:
            await self._apply_access(None)
            return
        if role != self.role:
            self.role = role
            await _redis(
                live.viewer_role_set, conversation_id=self.conversation_id, channel_name=self.channel_name, role=role
            )
        holder = await _redis(control.control_holder, conversation_id=self.conversation_id)
        hello: HelloEvent = {
            "type": "hello",
            "conversation": await _conversation_payload(self.user, self.conversation_id),
            "role": self.role,
            "control": {"holder": holder["username"] if holder else None},
            "live": self._live,
        }
        await self._send_event(hello)
        if refusal:
            await self._send_error(refusal)
        await self._publish_presence()
        self._expiry = asyncio.create_task(self._expire_access())
        self._keepalive = asyncio.create_task(self._keep_presence())
        self._follower = asyncio.create_task(self._follow_account())

    async def disconnect(self, code: int) -> None:
        for name in ("_expiry", "_keepalive", "_follower"):
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
        if hasattr(self, "_pacer"):
            await self._pacer.close()
        await self._leave()

    async def _keep_presence(self) -> None:
        """Refresh this socket's presence entry, and the user's control if they hold it, before they expire."""
        while self._watching:
            await asyncio.sleep(settings.HIVE_PRESENCE_REFRESH_S)
            try:
                await _redis(live.viewer_seen, conversation_id=self.conversation_id, channel_name=self.channel_name)
                await _redis(control.control_refresh, conversation_id=self.conversation_id, user_id=self.user.pk)
                if self._live:
                    await _redis(live_session_seen, **self._live_claim())
            except Exception as exc:  # Redis away for a moment: the next round refreshes
                log.warning("presence refresh failed for conversation %s: %r", self.conversation_id, exc)

    async def _leave(self) -> None:
        """Stop watching: out of the group and the viewers hash, control handed back if this was the holder's
        last socket, and everyone told who is left. Safe to call twice."""
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if not getattr(self, "_watching", False):
            return
        self._watching = False
        await self.channel_layer.group_discard(account_group(self.user.pk), self.channel_name)
        if self._live:
            self._live = False
            await _redis(live_session_release, **self._live_claim())
            # Room for one more of the owner's live sessions: the sockets waiting for it try at once.
            await self.channel_layer.group_send(live_waiting_group(self._owner_id), {"type": "live.room"})
        else:
            await self.channel_layer.group_discard(live_waiting_group(self._owner_id), self.channel_name)
        await _redis(live.viewer_left, conversation_id=self.conversation_id, channel_name=self.channel_name)
        await _redis(control.control_release_on_leave, conversation_id=self.conversation_id, user_id=self.user.pk)
        await self._publish_presence()

    def _live_claim(self) -> dict[str, Any]:
        return {"owner_id": self._owner_id, "conversation_id": self.conversation_id, "channel_name": self.channel_name}

    async def _publish_presence(self) -> None:
        viewers = await _redis(live.presence, conversation_id=self.conversation_id)
        await self.channel_layer.group_send(self.group, event_message({"type": "presence", "viewers": viewers}))

    # -- access ----------------------------------------------------------------------------------------------

    async def _apply_access(self, role: str | None) -> None:
        if role is None:
            await self._leave()
            await self.close(code=FORBIDDEN)
            return
        if RANK[role] < RANK["controller"]:
            await _redis(control.control_release_if_held, conversation_id=self.conversation_id, user_id=self.user.pk)
        if role == self.role:
            return
        self.role = role
        await _redis(
            live.viewer_role_set, conversation_id=self.conversation_id, channel_name=self.channel_name, role=role
        )
        await self._send_event({"type": "access.updated", "role": role})
        await self._publish_presence()

    async def _expire_access(self) -> None:
        """Re-check the access when a share that grants it expires, so an expired link cuts the socket at once."""
        while self._watching:
            until = await _access_changes_at(self.user, self.conversation_id)
            if until is None:
                return
            await asyncio.sleep(max(0.0, (until - timezone.now()).total_seconds()) + 0.05)
            await self._apply_access(await _access(self.user, self.conversation_id))

    async def _recheck(self) -> None:
        """Read the access again (the credential, the user, the share) and apply it: closed (4403) when it ended."""
        self._role_checked_at = time.monotonic()
        await self._apply_access(await _access_now(self._credential, self.conversation_id))

    async def _current_role(self) -> str | None:
        """The role to act on: re-read when the one known is older than HIVE_SOCKET_RECHECK_S."""
        if time.monotonic() - self._role_checked_at >= settings.HIVE_SOCKET_RECHECK_S:
            await self._recheck()
        return self.role if self._watching else None

    async def _follow_account(self) -> None:
        """Every HIVE_SOCKET_RECHECK_S: still signed in with access (else closed), and streaming once there is room
        in the owner's live-sessions quota."""
        while self._watching:
            await asyncio.sleep(settings.HIVE_SOCKET_RECHECK_S)
            try:
                await self._recheck()
                if self._watching and not self._live:
                    await self._become_live()
            except Exception as exc:  # the database or Redis away for a moment: the next round checks again
                log.warning("could not re-check a socket on conversation %s: %r", self.conversation_id, exc)

    async def _become_live(self) -> None:
        if self._live or await _claim_live(self._owner_id, self.conversation_id, self.channel_name):
            return
        self._live = True
        await self.channel_layer.group_discard(live_waiting_group(self._owner_id), self.channel_name)
        await _redis(live.viewer_live_set, conversation_id=self.conversation_id, channel_name=self.channel_name)
        await self._send_event({"type": "live.updated", "live": True})

    async def live_room(self, message: LiveRoomMessage) -> None:
        """One of the owner's live sessions ended: this socket, waiting for room, may stream now."""
        if self._watching:
            await self._become_live()

    async def account_changed(self, message: AccountChangedMessage) -> None:
        """Sent to every socket of a user whose account changed (signed out, token revoked, deactivated)."""
        if self._watching:
            await self._recheck()

    async def access_changed(self, message: AccessChangedMessage) -> None:
        """Sent to this socket's own channel when its user's share was changed or revoked."""
        if not self._watching:
            return
        await self._apply_access(message.get("role"))
        if self._watching:  # a new or changed share may expire at another time
            if self._expiry is not None:
                self._expiry.cancel()
            self._expiry = asyncio.create_task(self._expire_access())

    # -- from the client ---------------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Client JSON passes the same checks as the REST API's (no lone surrogates, NUL or deep nesting)."""
        if text_data is None:
            await self._send_error("Send JSON text frames.")
            return
        try:
            content = json_input.loads(text_data)
        except ValueError as exc:
            await self._send_error(f"Malformed message: {exc}")
            return
        await self.receive_json(content)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, ensure_ascii=False).encode("utf-8", "backslashreplace").decode("utf-8")

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._send_error("Send a JSON object with a 'type'.")
            return
        kind = content.get("type")
        if kind == "ping":
            await self._send_event({"type": "pong"})
        elif kind == "frame.ack":
            await self._frame_acknowledged()
        elif kind == "input":
            await self._relay_input(content)
        elif kind in ("control.take", "control.release"):
            await self._control(kind)
        else:
            await self._send_error(f"Unknown message type: {kind!r}.")

    async def _control(self, kind: str) -> None:
        role = await self._current_role()
        if role is None:
            return
        try:
            if kind == "control.take":
                await _redis(control.control_take, conversation_id=self.conversation_id, user=self.user, access=role)
            else:  # handing back may answer the agent's request for a person: a database write, on its thread
                await database_sync_to_async(control.control_release)(
                    conversation_id=self.conversation_id, user=self.user, access=role
                )
        except ApplicationError as refused:
            await self._send_error(refused.message)

    async def _relay_input(self, content: JsonObject) -> None:
        role = await self._current_role()
        if role is None:
            return
        if RANK[role] < RANK["controller"]:
            await self._send_error("Viewers cannot use the live browser; ask the owner to make you a controller.")
            return
        if content.get("kind") not in INPUT_KINDS:
            await self._send_error(f"Unknown input kind; use one of {sorted(INPUT_KINDS)}.")
            return
        holder = await _redis(control.control_holder, conversation_id=self.conversation_id)
        if holder is None or holder["user_id"] != self.user.pk:
            detail = (
                "Take control of the browser first (control.take)."
                if holder is None
                else f"{holder['username']} has control of the browser."
            )
            await self._send_error(detail)
            return
        await self._pacer.offer({k: v for k, v in content.items() if k != "type"})

    async def _send_input(self, event: JsonObject) -> None:
        message: CommandMessage = {
            "type": "session.command",
            "command": {"type": "input", "conversation_id": self.conversation_id, "input": event},
        }
        await self.channel_layer.group_send(session_group(self.conversation_id), message)

    # -- events from the group ---------------------------------------------------------------------------------

    async def _send_event(self, event: Event | SocketEvent) -> None:
        await self.send_json(event)

    async def _send_error(self, detail: str) -> None:
        await self._send_event({"type": "error", "detail": detail})

    async def conversation_event(self, message: EventMessage) -> None:
        event = message["event"]
        if event["type"] == "conversation.updated" and self.role != "owner":
            # Published as its owner sees it; a teammate sees it as shared with them.
            event = {**event, "conversation": {**event["conversation"], "role": self.role, "shared": True}}
        await self._send_event(event)

    async def conversation_frame(self, message: FrameMessage) -> None:
        frame = message["frame"]
        if self._awaiting_ack:
            self._pending_frame = frame
            if self._frames_wanted and time.monotonic() - self._frame_sent_at >= FRAME_ACK_TIMEOUT_S:
                await self._want_frames(False)
            return
        await self._send_frame(frame)

    async def _send_frame(self, frame: Frame) -> None:
        self._awaiting_ack = True
        self._frame_sent_at = time.monotonic()
        await self._send_event({"type": "frame", **frame})

    async def _frame_acknowledged(self) -> None:
        if not self._frames_wanted:
            await self._want_frames(True)
        frame, self._pending_frame = self._pending_frame, None
        if frame is None:
            self._awaiting_ack = False
            return
        await self._send_frame(frame)

    async def _want_frames(self, wanted: bool) -> None:
        self._frames_wanted = wanted
        try:
            await _redis(
                live.viewer_frames_set,
                conversation_id=self.conversation_id,
                channel_name=self.channel_name,
                wanted=wanted,
            )
        except Exception as exc:  # Redis away: the stream goes on as it was; the next frame or ack tries again
            self._frames_wanted = not wanted
            log.warning("could not record frame interest for conversation %s: %r", self.conversation_id, exc)
