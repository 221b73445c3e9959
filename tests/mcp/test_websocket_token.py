"""A script follows a conversation live over the websocket with its API token instead of a session cookie."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import session_cookie
from webapp.accounts.services import api_token_revoke, api_token_rotate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _connect(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> tuple[bool, Any, Any]:
    from webapp.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=headers or [])
    connected, code = await communicator.connect(timeout=5)
    return connected, code, communicator


async def _token(user: Any) -> str:
    _, key = await sync_to_async(api_token_rotate)(user=user)
    return str(key)


async def test_a_script_connects_with_its_token_in_the_query_or_the_header_without_cookie_or_origin() -> None:
    conversation = await sync_to_async(ConversationFactory)()
    key = await _token(conversation.owner)
    path = f"/ws/conversations/{conversation.pk}/"
    for url, headers in (
        (f"{path}?token={key}", []),
        (path, [(b"authorization", f"Bearer {key}".encode())]),
        (path, [(b"authorization", f"Token {key}".encode())]),
    ):
        connected, code, communicator = await _connect(url, headers)
        assert connected, f"refused with {code} for {url} {headers}"
        hello = await communicator.receive_json_from(timeout=5)
        assert hello["type"] == "hello"
        assert hello["conversation"]["id"] == conversation.pk
        assert hello["role"] == "owner"
        await communicator.disconnect()


async def test_a_bad_revoked_or_strangers_token_is_refused() -> None:
    conversation = await sync_to_async(ConversationFactory)()
    stranger = await sync_to_async(UserFactory)()
    stranger_key = await _token(stranger)
    owner_key = await _token(conversation.owner)
    await sync_to_async(api_token_revoke)(user=conversation.owner)
    path = f"/ws/conversations/{conversation.pk}/"
    for url in (f"{path}?token=not-a-token", f"{path}?token={owner_key}", f"{path}?token={stranger_key}"):
        connected, code, communicator = await _connect(url)
        assert not connected
        assert code == 4403
        await communicator.disconnect()


async def test_a_bad_token_does_not_fall_back_to_the_owners_session_cookie() -> None:
    conversation = await sync_to_async(ConversationFactory)()
    cookie = await sync_to_async(session_cookie)(conversation.owner)
    browser_headers = [
        (b"cookie", f"sessionid={cookie}".encode()),
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
    ]
    path = f"/ws/conversations/{conversation.pk}/"
    connected, _, communicator = await _connect(path, browser_headers)
    assert connected  # the cookie alone still works, as before
    await communicator.disconnect()
    connected, code, communicator = await _connect(path, [*browser_headers, (b"authorization", b"Bearer wrong")])
    assert not connected
    assert code == 4403
    await communicator.disconnect()
