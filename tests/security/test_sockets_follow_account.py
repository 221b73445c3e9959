"""Sockets follow the account: real websockets through the ASGI application and the real Redis channel layer.

Control and input act on the role as the database has it (at most HIVE_SOCKET_RECHECK_S old), so a revocation whose
message was lost still takes the controls away; signing out, revoking the API token and deactivating the user
close that person's sockets within seconds, and only theirs (another session of the same user stays open)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import EventStream
from tests.integration.test_sharing_live import SessionListener, closed_with, next_event
from webapp.core import placement
from webapp.sharing.control import CONTROL_PREFIX
from webapp.sharing.models import Share

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CLICK = {"type": "input", "kind": "click", "x": 0.5, "y": 0.5}


@pytest.fixture(autouse=True)
def _fresh_live_state() -> None:
    conn = placement.client()
    for key in [*conn.scan_iter(match=CONTROL_PREFIX + "*"), *conn.scan_iter(match=placement.VIEWERS_PREFIX + "*")]:
        conn.delete(key)


class Browser:
    """One signed-in browser (its own session cookie) of a user, and the sockets it opens."""

    def __init__(self, user: User) -> None:
        self.client = Client()
        self.client.force_login(user)
        self.cookie = self.client.cookies["sessionid"].value


async def _connect(headers: list[tuple[bytes, bytes]], conversation_id: int, path_suffix: str = "") -> EventStream:
    from webapp.asgi import application

    communicator = WebsocketCommunicator(application, f"/ws/conversations/{conversation_id}/{path_suffix}", headers)
    connected, code = await communicator.connect(timeout=5)
    assert connected, f"refused with {code}"
    stream = EventStream(communicator)
    await stream.until(lambda e: e["type"] == "hello")
    return stream


async def cookie_socket(browser: Browser, conversation_id: int) -> EventStream:
    headers = [(b"cookie", f"sessionid={browser.cookie}".encode()), (b"origin", b"http://localhost")]
    return await _connect([*headers, (b"host", b"localhost")], conversation_id)


async def token_socket(key: str, conversation_id: int) -> EventStream:
    return await _connect([(b"authorization", f"Token {key}".encode())], conversation_id)


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[EventStream]]:
    opened: list[EventStream] = []
    yield opened
    for stream in opened:
        await stream.communicator.disconnect()


async def still_open(stream: EventStream) -> bool:
    await stream.communicator.send_json_to({"type": "ping"})
    return (await next_event(stream, "pong"))["type"] == "pong"


async def test_input_acts_on_the_role_in_the_database_when_the_revocation_message_is_lost(
    settings: Any, sockets: list[EventStream]
) -> None:
    settings.HIVE_SOCKET_RECHECK_S = 0.0  # every command reads the role again
    conversation = await sync_to_async(ConversationFactory)()
    mate = await sync_to_async(UserFactory)()
    share = await sync_to_async(Share.objects.create)(
        conversation=conversation, user=mate, role="controller", created_by=conversation.owner
    )
    worker = SessionListener(conversation.pk)
    await worker.start()
    stream = await cookie_socket(await sync_to_async(Browser)(mate), conversation.pk)
    sockets.append(stream)
    await stream.communicator.send_json_to({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == mate.username)
    await stream.communicator.send_json_to(CLICK)
    await worker.until(lambda c: c["type"] == "input")

    # Revoked in the database, with no message to the socket (as if it were lost on the way).
    await sync_to_async(Share.objects.filter(pk=share.pk).update)(revoked_at=timezone.now())
    await stream.communicator.send_json_to({**CLICK, "x": 0.9})
    assert await closed_with(stream) == 4403
    await worker.none_of(lambda c: c["type"] == "input" and c["input"]["x"] == 0.9)
    await worker.layer.group_discard(worker.group, worker.channel)


async def test_a_revoked_share_closes_the_socket_within_seconds_without_any_message(
    settings: Any, sockets: list[EventStream]
) -> None:
    settings.HIVE_SOCKET_RECHECK_S = 1.0
    conversation = await sync_to_async(ConversationFactory)()
    mate = await sync_to_async(UserFactory)()
    share = await sync_to_async(Share.objects.create)(
        conversation=conversation, user=mate, role="viewer", created_by=conversation.owner
    )
    stream = await cookie_socket(await sync_to_async(Browser)(mate), conversation.pk)
    sockets.append(stream)
    await sync_to_async(Share.objects.filter(pk=share.pk).update)(revoked_at=timezone.now())
    assert await closed_with(stream, wait_s=4) == 4403


async def test_signing_out_closes_that_sessions_sockets_and_no_other(settings: Any, sockets: list[EventStream]) -> None:
    settings.HIVE_SOCKET_RECHECK_S = 60.0  # the sign-out itself tells the sockets
    conversation = await sync_to_async(ConversationFactory)()
    laptop, phone = await sync_to_async(Browser)(conversation.owner), await sync_to_async(Browser)(conversation.owner)
    on_laptop, on_phone = await cookie_socket(laptop, conversation.pk), await cookie_socket(phone, conversation.pk)
    sockets.extend([on_laptop, on_phone])

    response = await sync_to_async(laptop.client.post)("/api/auth/logout/")
    assert response.status_code == 204
    assert await closed_with(on_laptop) == 4403
    assert await still_open(on_phone), "the phone is still signed in"


async def test_revoking_the_api_token_closes_its_sockets(settings: Any, sockets: list[EventStream]) -> None:
    settings.HIVE_SOCKET_RECHECK_S = 60.0
    conversation = await sync_to_async(ConversationFactory)()
    api = APIClient()
    await sync_to_async(api.force_login)(conversation.owner)
    key = (await sync_to_async(api.post)("/api/auth/token/")).json()["token"]
    script = await token_socket(key, conversation.pk)
    dashboard = await cookie_socket(await sync_to_async(Browser)(conversation.owner), conversation.pk)
    sockets.extend([script, dashboard])

    assert (await sync_to_async(api.delete)("/api/auth/token/")).status_code == 204
    assert await closed_with(script) == 4403
    assert await still_open(dashboard), "the dashboard's session was not the token"


async def test_a_deactivated_user_loses_every_socket(settings: Any, sockets: list[EventStream]) -> None:
    settings.HIVE_SOCKET_RECHECK_S = 60.0
    conversation = await sync_to_async(ConversationFactory)()
    owner = conversation.owner
    streams = [await cookie_socket(await sync_to_async(Browser)(owner), conversation.pk) for _ in range(2)]
    sockets.extend(streams)

    owner.is_active = False
    await sync_to_async(owner.save)()
    for stream in streams:
        assert await closed_with(stream) == 4403
