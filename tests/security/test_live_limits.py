"""One account cannot fill the workers that strangers share: live sessions (watched or working) count against
HIVE_QUOTA_CONCURRENT_SESSIONS, new conversations are throttled, and live input is paced per socket. Real websockets
through the ASGI application, the real Redis channel layer and Celery queue; the test listens on the session group
in the worker's place."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import EventStream, open_stream
from tests.integration.test_sharing_live import SessionListener, next_event
from webapp.conversations import live
from webapp.conversations.live import OPEN_SESSION_TASK
from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.core.throttles import WriteThrottle, _ScopeForUser
from webapp.mcp_server.services import Refusal, conversation_for_client
from webapp.runs.models import Run
from webapp.runs.quotas import LIVE_SESSIONS_PREFIX
from webapp.sharing.control import CONTROL_PREFIX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_live_state() -> Iterator[None]:
    cache.clear()
    conn = placement.client()
    prefixes = (CONTROL_PREFIX, placement.VIEWERS_PREFIX, LIVE_SESSIONS_PREFIX)
    for key in [key for prefix in prefixes for key in conn.scan_iter(match=prefix + "*")]:
        conn.delete(key)
    yield
    cache.clear()


def opened_sessions(conversation_ids: set[int]) -> list[int]:
    """The conversations whose browser session the web asked a worker to open (the Celery messages queued)."""
    found = []
    for raw in placement.client().lrange(placement.SHARED_QUEUE, 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] == OPEN_SESSION_TASK:
            conversation_id = json.loads(message["headers"]["argsrepr"].replace("(", "[").replace(",)", "]"))[0]
            if conversation_id in conversation_ids:
                found.append(conversation_id)
    return found


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[EventStream]]:
    opened: list[EventStream] = []
    yield opened
    for stream in opened:
        await stream.communicator.disconnect()


async def watch(user: Any, conversation_id: int, opened: list[EventStream]) -> tuple[dict[str, Any], EventStream]:
    connected, code, stream = await open_stream(user, conversation_id)
    assert connected, code
    opened.append(stream)
    return await stream.until(lambda e: e["type"] == "hello"), stream


@pytest.mark.usefixtures("no_main_worker")  # the queued requests to open a session are what is counted
async def test_one_account_holding_many_sockets_opens_no_more_sessions_than_its_quota(
    settings: Any, sockets: list[EventStream]
) -> None:
    settings.HIVE_QUOTA_CONCURRENT_SESSIONS = 2
    owner = await sync_to_async(UserFactory)()
    conversations = [await sync_to_async(ConversationFactory)(owner=owner) for _ in range(12)]
    ids = {c.pk for c in conversations}

    hellos = []
    for conversation in conversations:
        hellos.append(await watch(owner, conversation.pk, sockets))
    assert [hello["live"] for hello, _ in hellos] == [True, True] + [False] * 10
    refusal = await hellos[2][1].until(lambda e: e["type"] == "error")
    assert "the most this server allows at once (2)" in refusal["detail"]
    assert sorted(opened_sessions(ids)) == sorted(c.pk for c in conversations[:2]), "only two sessions were opened"
    streaming = [c.pk for c in conversations if await sync_to_async(live.viewer_count)(conversation_id=c.pk)]
    assert streaming == [c.pk for c in conversations[:2]], "the worker streams two of them"
    # A past-quota socket still follows its conversation's messages.
    api = APIClient()
    await sync_to_async(api.force_login)(owner)
    path = f"/api/conversations/{conversations[2].pk}/"
    assert (await sync_to_async(api.patch)(path, {"title": "Renamed"}, format="json")).status_code == 200
    assert (await hellos[2][1].until(lambda e: e["type"] == "conversation.updated"))["conversation"]["title"]

    # Watched sessions count against runs too: a third live conversation is refused, a watched one may work.
    refused = await sync_to_async(api.post)(
        f"/api/conversations/{conversations[5].pk}/messages/", {"content": "go"}, format="json"
    )
    assert (refused.status_code, refused.json()["limit"]) == (429, "concurrent_sessions")
    allowed = await sync_to_async(api.post)(
        f"/api/conversations/{conversations[0].pk}/messages/", {"content": "go"}, format="json"
    )
    assert allowed.status_code == 201
    assert await sync_to_async(Run.objects.filter(conversation_id=conversations[5].pk).count)() == 0

    # Another account has its own quota.
    stranger_conversation = await sync_to_async(ConversationFactory)()
    hello, _ = await watch(stranger_conversation.owner, stranger_conversation.pk, sockets)
    assert hello["live"] is True

    # A closed socket makes room: a waiting one starts streaming.
    await hellos[1][1].communicator.disconnect()
    sockets.remove(hellos[1][1])
    waiting = [stream for _, stream in hellos[2:]]
    started = await _first_to_go_live(waiting)
    assert started is not None, "a socket waiting for room streams once there is some"
    assert conversations[2 + waiting.index(started)].pk in opened_sessions(ids)
    others = [stream for stream in waiting if stream is not started]
    assert await _first_to_go_live(others, wait_s=1) is None, "only one took the room"


async def _first_to_go_live(streams: list[EventStream], wait_s: float = 5) -> EventStream | None:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        for stream in streams:
            # (a receive that times out would end the socket: look first)
            if await stream.communicator.receive_nothing(timeout=0.01, interval=0.005):
                continue
            event = await stream.communicator.receive_json_from()
            stream.events.append(event)
            if event["type"] == "live.updated" and event["live"]:
                return stream
    return None


async def test_new_conversations_are_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"conversations": "3/hour"})
    user = await sync_to_async(UserFactory)()
    api = APIClient()
    await sync_to_async(api.force_login)(user)
    answers = [(await sync_to_async(api.post)("/api/conversations/", {}, format="json")).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]
    assert (await sync_to_async(api.get)("/api/conversations/")).status_code == 200, "reads are not limited"


async def test_live_input_is_paced_per_socket(settings: Any, sockets: list[EventStream]) -> None:
    settings.HIVE_LIVE_INPUT_PER_S = 5
    conversation = await sync_to_async(ConversationFactory)()
    worker = SessionListener(conversation.pk)
    await worker.start()
    _, stream = await watch(conversation.owner, conversation.pk, sockets)
    await stream.communicator.send_json_to({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == conversation.owner.username)
    is_input: Callable[[dict[str, Any]], bool] = lambda c: c["type"] == "input"  # noqa: E731

    began = time.monotonic()
    for n in range(40):
        await stream.communicator.send_json_to({"type": "input", "kind": "click", "x": n / 40, "y": 0.5})
    notice = await next_event(stream, "error")
    assert "limited to 5 events a second" in notice["detail"]
    await worker.none_of(lambda c: False, wait_s=0.5)  # collect what reached the worker
    clicks = [c for c in worker.commands if is_input(c)]
    assert 5 <= len(clicks) <= 5 + 5 * (time.monotonic() - began) + 1, "a second's worth, then the rate"
    assert [c["input"]["x"] for c in clicks[:5]] == [0, 1 / 40, 2 / 40, 3 / 40, 4 / 40]

    # Moves past the pace are merged: the pointer still ends where the hand stopped.
    began = time.monotonic()
    for n in range(40):
        await stream.communicator.send_json_to({"type": "input", "kind": "move", "x": n / 40, "y": 0.25})
    last = await worker.until(lambda c: is_input(c) and c["input"]["kind"] == "move" and c["input"]["x"] == 39 / 40)
    assert last["input"]["y"] == 0.25
    moves = [c for c in worker.commands if is_input(c) and c["input"]["kind"] == "move"]
    assert len(moves) <= 5 + 5 * (time.monotonic() - began) + 1 < 40, "forty moves were merged into a few"
    later = []
    while not await stream.communicator.receive_nothing(timeout=0.5):  # what came after the notice
        later.append(await stream.communicator.receive_json_from())
    assert [e for e in later if e["type"] == "error"] == [], "the client was told once"
    await worker.layer.group_discard(worker.group, worker.channel)


async def test_mcp_clients_count_against_the_same_conversation_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    rates = {"conversations": "2/hour"}
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(_ScopeForUser, "THROTTLE_RATES", rates)
    user = await sync_to_async(UserFactory)()
    api = APIClient()
    await sync_to_async(api.force_login)(user)
    assert (await sync_to_async(api.post)("/api/conversations/", {}, format="json")).status_code == 201

    def new_mcp_session(n: int) -> object:
        return conversation_for_client(user=user, named=None, session_id=f"client-{n}", create=True)

    assert await sync_to_async(new_mcp_session)(1) is not None
    with pytest.raises(Refusal, match="Too many new conversations"):
        await sync_to_async(new_mcp_session)(2)
    assert await sync_to_async(Conversation.objects.filter(owner=user).count)() == 2
