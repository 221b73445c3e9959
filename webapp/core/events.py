"""Publishing to a conversation's websocket group, and commands to the worker holding its session.

Events are published after the transaction that made them commits, so a client that re-reads the API
on an event always finds what the event announced. The channel layer may drop messages; anything that
must not be lost is in the database first.

The shapes below are the websocket protocol (frontend/src/api/types.ts mirrors them) and the commands the web sends
the worker; each is defined once here and used by whoever builds or reads it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from webapp.conversations.types import PageTools, PresenceViewer, SessionTab, TabContext
from webapp.core.types import JsonObject
from webapp.runs.types import PlanStepPayload

log = logging.getLogger(__name__)

# -- events: server → the dashboard's websocket (the REST API's output shapes where they carry a record) ---------


class ControlState(TypedDict):
    holder: str | None  # who holds the live browser's controls (a username), or nobody


class HelloEvent(TypedDict):
    type: Literal["hello"]
    conversation: JsonObject  # ConversationOutput
    role: str
    control: ControlState
    live: bool  # whether this socket streams the live browser (false past the owner's live-sessions quota)


class LiveUpdatedEvent(TypedDict):
    type: Literal["live.updated"]
    live: bool


class PresenceEvent(TypedDict):
    type: Literal["presence"]
    viewers: list[PresenceViewer]


class ControlUpdatedEvent(TypedDict):
    type: Literal["control.updated"]
    holder: str | None


class AccessUpdatedEvent(TypedDict):
    type: Literal["access.updated"]
    role: str


class ConversationUpdatedEvent(TypedDict):
    type: Literal["conversation.updated"]
    conversation: JsonObject  # ConversationOutput, as its owner sees it


class RunUpdatedEvent(TypedDict):
    type: Literal["run.updated"]
    run: JsonObject  # RunOutput


class MessageCreatedEvent(TypedDict):
    type: Literal["message.created"]
    message: JsonObject  # MessageOutput


class AssistantDeltaEvent(TypedDict):
    type: Literal["assistant.delta"]
    run: int
    delta: str


class StepEvent(TypedDict):
    type: Literal["step.created", "step.updated"]
    step: JsonObject  # StepOutput


class TabsUpdatedEvent(TypedDict):
    type: Literal["tabs.updated"]
    tabs: list[SessionTab]


class SessionNoticeEvent(TypedDict):
    """The browser pool closed tabs of the session on its own (past its limits), or put the session away."""

    type: Literal["session.notice"]
    kind: Literal["tabs", "busy", "memory", "evicted"]
    text: str
    tab_id: str


class TabContentEvent(TypedDict):
    type: Literal["tab.content"]
    content: TabContext


class TabContentRemovedEvent(TypedDict):
    type: Literal["tab.content.removed"]
    tab_id: str


class ToolsUpdatedEvent(PageTools):
    type: Literal["tools.updated"]


class ConfirmationEvent(TypedDict):
    type: Literal["confirmation.requested", "confirmation.updated"]
    confirmation: JsonObject  # ConfirmationOutput


class PlanUpdatedEvent(TypedDict):
    type: Literal["plan.updated"]
    run: int
    steps: list[PlanStepPayload]


class ErrorEvent(TypedDict):
    type: Literal["error"]
    detail: str


class PongEvent(TypedDict):
    type: Literal["pong"]


class Frame(TypedDict):
    """One live-view picture of the session's active tab; sent to a viewer as a `frame` event."""

    data: str  # base64 JPEG
    width: int
    height: int
    tab: str
    ts: int  # ms


class FrameEvent(Frame):
    type: Literal["frame"]


# What the conversation's group carries to every socket (frames travel apart, paced per viewer).
Event = (
    PresenceEvent
    | ControlUpdatedEvent
    | ConversationUpdatedEvent
    | RunUpdatedEvent
    | MessageCreatedEvent
    | AssistantDeltaEvent
    | StepEvent
    | TabsUpdatedEvent
    | SessionNoticeEvent
    | TabContentEvent
    | TabContentRemovedEvent
    | ToolsUpdatedEvent
    | ConfirmationEvent
    | PlanUpdatedEvent
)
# What one socket sends its own client besides the group's events.
SocketEvent = HelloEvent | AccessUpdatedEvent | LiveUpdatedEvent | FrameEvent | ErrorEvent | PongEvent


# -- events: server → one user's own websocket (/ws/me/), about conversations they do not have open -------------


class ConversationSharedEvent(TypedDict):
    """A conversation was shared with the user, or their role in it changed."""

    type: Literal["conversation.shared"]
    conversation: JsonObject  # ConversationOutput, as the user sees it (role, shared)


class ConversationUnsharedEvent(TypedDict):
    """The user can no longer see a conversation: the share was revoked, or the conversation deleted."""

    type: Literal["conversation.unshared"]
    conversation: int


UserEvent = ConversationSharedEvent | ConversationUnsharedEvent


def tools_updated_event(tools: PageTools) -> ToolsUpdatedEvent:
    return {"type": "tools.updated", **tools}


# -- commands: the web → the worker holding a conversation's session ---------------------------------------------


class _Command(TypedDict):
    conversation_id: NotRequired[int]  # added by command_session


class RunAbortCommand(_Command):
    type: Literal["run.abort"]
    run_id: int


class ConfirmationAnswerCommand(_Command):
    type: Literal["confirmation.answer"]
    id: int  # the confirmation's
    approved: bool


class ControlChangedCommand(_Command):
    type: Literal["control.changed"]
    paused: bool
    holder: str | None


class InputCommand(_Command):
    type: Literal["input"]
    input: JsonObject  # the controller's live-view input, checked by browser_pool.input.InputEvent.from_dict


class ViewersChangedCommand(_Command):
    type: Literal["viewers.changed"]


class SessionDiscardCommand(_Command):
    type: Literal["session.discard"]


class ProfileChangedCommand(_Command):
    """The conversation's browser profile was chosen, changed or dropped: an open session follows at once."""

    type: Literal["profile.changed"]


Command = (
    RunAbortCommand
    | ConfirmationAnswerCommand
    | ControlChangedCommand
    | InputCommand
    | ViewersChangedCommand
    | SessionDiscardCommand
    | ProfileChangedCommand
)

# -- channel layer messages: what group_send carries (Channels dispatches on `type`) ------------------------------


class EventMessage(TypedDict):
    type: Literal["conversation.event"]
    event: Event


class FrameMessage(TypedDict):
    type: Literal["conversation.frame"]
    frame: Frame


class CommandMessage(TypedDict):
    type: Literal["session.command"]
    command: Command


class UserEventMessage(TypedDict):
    type: Literal["user.event"]
    event: UserEvent


class AccessChangedMessage(TypedDict):
    """To one socket's own channel: its user's access changed (None: it ended)."""

    type: Literal["access.changed"]
    role: str | None


class AccountChangedMessage(TypedDict):
    """To every socket of one user: their account changed (signed out, token revoked, deactivated); each socket
    checks at once whether what authenticated it still does."""

    type: Literal["account.changed"]


class LiveRoomMessage(TypedDict):
    """To the sockets waiting for room in an owner's live-sessions quota: one of the owner's live sessions ended."""

    type: Literal["live.room"]


ChannelMessage = (
    EventMessage
    | FrameMessage
    | CommandMessage
    | UserEventMessage
    | AccessChangedMessage
    | AccountChangedMessage
    | LiveRoomMessage
)


def event_message(event: Event) -> EventMessage:
    return {"type": "conversation.event", "event": event}


# A live update waits at most this long: with Redis away, the Redis client's retries back off for seconds, and
# neither a request nor an agent's turn may wait for a message that is allowed to be lost.
LIVE_SEND_TIMEOUT_S = 1.0


async def group_send_bounded(group: str, message: ChannelMessage) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await asyncio.wait_for(layer.group_send(group, message), LIVE_SEND_TIMEOUT_S)


# A process with an event loop of its own (the worker) hands live updates to it without waiting: its services run
# on one database thread, and a Redis round trip per write made that thread the bottleneck under load.
Sender = Callable[[str, ChannelMessage], None]
_sender: Sender | None = None


def set_sender(sender: Sender | None) -> None:
    global _sender
    _sender = sender


def _group_send(group: str, message: ChannelMessage) -> None:
    if _sender is not None:
        _sender(group, message)
    else:
        async_to_sync(group_send_bounded)(group, message)


def conversation_group(conversation_id: int) -> str:
    return f"conversation-{conversation_id}"


def session_group(conversation_id: int) -> str:
    """The worker that holds a conversation's live browser session listens here."""
    return f"session-{conversation_id}"


def account_group(user_id: int) -> str:
    """Every open websocket of one user, whatever the conversation."""
    return f"account-{user_id}"


def live_waiting_group(owner_id: int) -> str:
    """The sockets on an owner's conversations that wait for room in the owner's live-sessions quota."""
    return f"live-waiting-{owner_id}"


def account_changed_notify(user_id: int) -> None:
    """Best effort and after the commit: each socket also re-checks its account on its own every few seconds."""

    def send() -> None:
        try:
            _group_send(account_group(user_id), {"type": "account.changed"})
        except Exception as exc:
            log.warning("could not tell the sockets of user %s their account changed: %r", user_id, exc)

    transaction.on_commit(send)


def publish(conversation_id: int, event: Event) -> None:
    """Best effort: a live update that cannot be sent (Redis away) is logged, never fails the request or the run;
    clients re-read the API when they reconnect."""
    try:
        _group_send(conversation_group(conversation_id), event_message(event))
    except Exception as exc:
        log.warning("could not publish %s to conversation %s: %r", event.get("type"), conversation_id, exc)


def publish_on_commit(conversation_id: int, event: Event) -> None:
    transaction.on_commit(lambda: publish(conversation_id, event))


def user_group(user_id: int) -> str:
    """Every open /ws/me/ socket of one user listens here."""
    return f"user-{user_id}"


def publish_to_user(user_id: int, event: UserEvent) -> None:
    """Best effort, like `publish`: the dashboard also re-reads its conversation list now and then."""
    try:
        _group_send(user_group(user_id), {"type": "user.event", "event": event})
    except Exception as exc:
        log.warning("could not publish %s to user %s: %r", event.get("type"), user_id, exc)


def command_session(conversation_id: int, command: Command) -> None:
    """Send a low-latency command (abort, input ...) to whichever worker holds the conversation's session."""
    command = command.copy()
    command["conversation_id"] = conversation_id
    try:
        _group_send(session_group(conversation_id), {"type": "session.command", "command": command})
    except Exception as exc:
        log.warning("could not send %s to conversation %s's worker: %r", command.get("type"), conversation_id, exc)
