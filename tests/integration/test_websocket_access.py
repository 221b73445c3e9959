from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import open_stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_owner_connects_and_gets_hello() -> None:
    conversation = await sync_to_async(ConversationFactory)()
    connected, _, stream = await open_stream(conversation.owner, conversation.pk)
    assert connected
    hello = await stream.communicator.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    assert hello["conversation"]["id"] == conversation.pk
    await stream.communicator.send_json_to({"type": "ping"})
    await stream.until(lambda e: e["type"] == "pong", wait_s=5)  # (presence events come and go meanwhile)
    await stream.communicator.send_json_to({"type": "launch-missiles"})
    assert "Unknown message type" in (await stream.until(lambda e: e["type"] == "error", wait_s=5))["detail"]
    await stream.communicator.disconnect()


async def test_a_stranger_and_an_anonymous_visitor_are_refused() -> None:
    conversation = await sync_to_async(ConversationFactory)()
    stranger = await sync_to_async(UserFactory)()
    for user in (stranger, None):
        connected, code, stream = await open_stream(user, conversation.pk)
        assert not connected
        assert code == 4403
        await stream.communicator.disconnect()


async def test_unknown_conversation_is_refused() -> None:
    user = await sync_to_async(UserFactory)()
    connected, code, stream = await open_stream(user, 987654)
    assert not connected
    assert code == 4403
    await stream.communicator.disconnect()
