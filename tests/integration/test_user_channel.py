"""A user's own websocket (/ws/me/) with the real Redis channel layer: a teammate hears at once that a conversation
was shared with them (as they will see it in their list), that their role changed, that the share was revoked or
the conversation deleted; nobody else hears of it, and nobody signed out may listen."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def own_socket(user: Any) -> tuple[bool, int | None, WebsocketCommunicator]:
    from webapp.asgi import application

    cookie = await sync_to_async(session_cookie)(user) if user is not None else ""
    communicator = WebsocketCommunicator(
        application,
        "/ws/me/",
        headers=[
            (b"cookie", f"sessionid={cookie}".encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ],
    )
    connected, code = await communicator.connect(timeout=5)
    return connected, code, communicator


@sync_to_async
def call(user: Any, method: str, path: str, body: Any = None) -> Any:
    client = APIClient()
    client.force_login(user)
    response = getattr(client, method)(path, body, format="json")
    return response.json() if response.content else None


async def test_shares_reach_the_teammates_own_socket_at_once() -> None:
    conversation = await sync_to_async(ConversationFactory)(title="Flights")
    owner = conversation.owner
    mate = await sync_to_async(UserFactory)(username="bob")
    stranger = await sync_to_async(UserFactory)()
    connected, _, bob = await own_socket(mate)
    assert connected
    _, _, other = await own_socket(stranger)
    base = f"/api/conversations/{conversation.pk}"

    share = await call(owner, "post", f"{base}/shares/", {"username": "bob", "role": "viewer"})
    shared = await bob.receive_json_from(timeout=5)
    assert shared["type"] == "conversation.shared"
    seen = shared["conversation"]
    assert (seen["id"], seen["title"], seen["owner"], seen["role"], seen["shared"]) == (
        conversation.pk,
        "Flights",
        owner.username,
        "viewer",
        True,
    )

    await call(owner, "patch", f"{base}/shares/{share['id']}/", {"role": "controller"})
    changed = await bob.receive_json_from(timeout=5)
    assert (changed["type"], changed["conversation"]["role"]) == ("conversation.shared", "controller")

    await call(owner, "delete", f"{base}/shares/{share['id']}/")
    assert await bob.receive_json_from(timeout=5) == {"type": "conversation.unshared", "conversation": conversation.pk}

    await call(owner, "post", f"{base}/shares/", {"username": "bob", "role": "viewer"})
    assert (await bob.receive_json_from(timeout=5))["type"] == "conversation.shared"
    await call(owner, "delete", f"{base}/")
    assert await bob.receive_json_from(timeout=5) == {"type": "conversation.unshared", "conversation": conversation.pk}

    assert await other.receive_nothing(timeout=0.5), "a stranger heard of someone else's share"
    await bob.send_json_to({"type": "ping"})
    assert await bob.receive_json_from(timeout=5) == {"type": "pong"}
    await bob.disconnect()
    await other.disconnect()


async def test_nobody_signed_out_may_listen() -> None:
    connected, code, communicator = await own_socket(None)
    assert (connected, code) == (False, 4403)
    await communicator.disconnect()
