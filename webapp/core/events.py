"""Publishing to a conversation's websocket group, and commands to the worker holding its session.

Events are published after the transaction that made them commits, so a client that re-reads the API
on an event always finds what the event announced. The channel layer may drop messages; anything that
must not be lost is in the database first. Every message goes through the publisher of the context it is sent
from: the web process's sends it at once, a worker's queues it on its loop (`publishing_through`).

The shapes below are the websocket protocol (frontend/src/api/types/protocol.ts is generated from them) and the
commands the web sends the worker; each is defined once here and used by whoever builds or reads it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Annotated, Literal, NotRequired, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from pydantic import WithJsonSchema
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before Python 3.12

from webapp.conversations.types import ConversationFilePayload, PageTools, PresenceViewer, SessionTab, TabContext
from webapp.core.types import JsonObject
from webapp.runs.types import PlanStepPayload

log = logging.getLogger(__name__)

# -- events: server → the dashboard's websocket (the REST API's output shapes where they carry a record) ---------


def _dashboard_type(name: str) -> WithJsonSchema:
    """A shape the REST API shares with an event: the generated TypeScript names the dashboard's own type for it
    (frontend/src/api/types/), which the REST API's output shapes are typed with."""
    return WithJsonSchema({"tsType": name})


ConversationJson = Annotated[JsonObject, _dashboard_type("Conversation")]  # ConversationOutput
RunJson = Annotated[JsonObject, _dashboard_type("Run")]  # RunOutput
MessageJson = Annotated[JsonObject, _dashboard_type("Message")]  # MessageOutput
StepJson = Annotated[JsonObject, _dashboard_type("Step")]  # StepOutput
ConfirmationJson = Annotated[JsonObject, _dashboard_type("Confirmation")]  # ConfirmationOutput
Role = Annotated[str, _dashboard_type("Role")]  # "owner", "controller" or "viewer"


class ControlState(TypedDict):
    holder: str | None  # who holds the live browser's controls (a username), or nobody


class HelloEvent(TypedDict):
    type: Literal["hello"]
    conversation: ConversationJson
    role: Role
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
    role: Role


class ConversationUpdatedEvent(TypedDict):
    type: Literal["conversation.updated"]
    conversation: ConversationJson  # as its owner sees it


class RunUpdatedEvent(TypedDict):
    type: Literal["run.updated"]
    run: RunJson


class MessageCreatedEvent(TypedDict):
    type: Literal["message.created"]
    message: MessageJson


class AssistantDeltaEvent(TypedDict):
    type: Literal["assistant.delta"]
    run: int
    delta: str


class StepEvent(TypedDict):
    type: Literal["step.created", "step.updated"]
    step: StepJson


class TabsUpdatedEvent(TypedDict):
    type: Literal["tabs.updated"]
    tabs: list[SessionTab]


class SessionNoticeEvent(TypedDict):
    """The browser pool closed tabs of the session on its own (past its limits), or put the session away."""

    type: Literal["session.notice"]
    kind: Literal["tabs", "busy", "memory", "evicted", "download"]
    text: str
    tab_id: str


class FileCreatedEvent(TypedDict):
    """A file was added to the conversation: a person uploaded it, or its browser downloaded it."""

    type: Literal["file.created"]
    file: ConversationFilePayload


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
    confirmation: ConfirmationJson


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
    | FileCreatedEvent
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
    conversation: ConversationJson  # as the user sees it (role, shared)


class ConversationUnsharedEvent(TypedDict):
    """The user can no longer see a conversation: the share was revoked, or the conversation deleted."""

    type: Literal["conversation.unshared"]
    conversation: int


class PersonWantedEvent(TypedDict):
    """The agent in one of the user's conversations asks for a person to take over its browser (ask_person)."""

    type: Literal["person.wanted"]
    conversation: int
    title: str  # the conversation's
    reason: str  # what the agent asks the person to do


UserEvent = ConversationSharedEvent | ConversationUnsharedEvent | PersonWantedEvent


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


# -- publishing: every live message a service sends goes through the publisher of the context it runs in ---------


class Publisher(Protocol):
    """Carries a process's live messages to the channel layer. It may raise when one cannot be sent; the functions
    below log that and go on, since a live message may be lost (what must not be is in the database first)."""

    def send(self, group: str, message: ChannelMessage) -> None: ...


class ChannelLayerPublisher:
    """The web process's publisher: a request's thread has no loop to hand a message to, so it sends it before
    going on, waiting at most LIVE_SEND_TIMEOUT_S."""

    def send(self, group: str, message: ChannelMessage) -> None:
        async_to_sync(group_send_bounded)(group, message)


# A context variable, not a module global: the worker publishes through its own in the contexts of its loop (their
# tasks and the database threads they call inherit it), while anything else in the same process keeps the default.
_publisher: ContextVar[Publisher | None] = ContextVar("publisher", default=None)


@contextmanager
def publishing_through(publisher: Publisher) -> Iterator[None]:
    """Publish through `publisher` in this context: the code run inside, the asyncio tasks it starts and the threads
    it calls through sync_to_async (each copies the context)."""
    token = _publisher.set(publisher)
    try:
        yield
    finally:
        # A coroutine left unfinished when its loop stopped is closed later, in another context: nothing to undo.
        with suppress(ValueError):
            _publisher.reset(token)


def current_publisher() -> Publisher:
    return _publisher.get() or ChannelLayerPublisher()


def _send_after_commit(group: str, message: ChannelMessage, what: str) -> None:
    """Send once the transaction in progress commits (now when there is none); never if it rolls back. The
    publisher is the caller's, even when the commit happens in a context of its own."""
    publisher = current_publisher()

    def send() -> None:
        try:
            publisher.send(group, message)
        except Exception as exc:
            log.warning("could not send %s to %s: %r", what, group, exc)

    # Outside a transaction this sends at once without opening a database connection, as a Redis-only caller (the
    # presence of a socket, the holder of a browser's controls) has none to open.
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(send)
    else:
        send()


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
    """Best effort: each socket also re-checks its account on its own every few seconds."""
    _send_after_commit(account_group(user_id), {"type": "account.changed"}, "account.changed")


def publish_on_commit(conversation_id: int, event: Event) -> None:
    """To everyone watching the conversation, once what the event announces is committed. Best effort: a live update
    that cannot be sent (Redis away) is logged, never fails the request or the run; clients re-read the API when
    they reconnect."""
    _send_after_commit(conversation_group(conversation_id), event_message(event), event["type"])


def publish_now(conversation_id: int, event: Event) -> None:
    """For what no transaction announces (text streamed from the model, the browser pool's notices): sent through
    the same publisher, in order with the services' updates."""
    try:
        current_publisher().send(conversation_group(conversation_id), event_message(event))
    except Exception as exc:
        log.warning("could not publish %s to conversation %s: %r", event["type"], conversation_id, exc)


def user_group(user_id: int) -> str:
    """Every open /ws/me/ socket of one user listens here."""
    return f"user-{user_id}"


def publish_to_user(user_id: int, event: UserEvent) -> None:
    """After the commit and best effort, like `publish_on_commit`: the dashboard also re-reads its conversation list
    now and then."""
    _send_after_commit(user_group(user_id), {"type": "user.event", "event": event}, event["type"])


def command_session(conversation_id: int, command: Command) -> None:
    """Send a low-latency command (abort, input ...) to whichever worker holds the conversation's session, after the
    commit: the worker may re-read what the command is about."""
    command = command.copy()
    command["conversation_id"] = conversation_id
    _send_after_commit(session_group(conversation_id), {"type": "session.command", "command": command}, command["type"])
