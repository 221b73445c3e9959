"""The worker's outbox of live updates, in this process with the real channel layer on Redis: updates reach the
conversation's group in the order they were posted; one that cannot be sent does not hold back the next; a full
outbox drops new updates rather than making a run wait for Redis (the database has everything)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from channels.layers import BaseChannelLayer, get_channel_layer

from webapp.core.events import ChannelMessage, event_message
from workers.live import Outbox

pytestmark = pytest.mark.asyncio

GROUP = "conversation-outbox-test"


@pytest_asyncio.fixture
async def listener() -> AsyncIterator[tuple[BaseChannelLayer, str]]:
    """A channel in the conversation's group, as a dashboard socket's consumer is."""
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    yield layer, channel
    await layer.group_discard(GROUP, channel)


async def _received(layer: BaseChannelLayer, channel: str, count: int) -> list[int]:
    """The numbers of the next `count` updates the channel receives."""
    async with asyncio.timeout(10):
        return [(await layer.receive(channel))["event"]["run"] for _ in range(count)]


def _update(n: int) -> ChannelMessage:
    return event_message({"type": "assistant.delta", "run": n, "delta": "…"})


async def _sending(outbox: Outbox) -> asyncio.Task[None]:
    return asyncio.create_task(outbox.send_forever())


async def test_updates_reach_the_group_in_the_order_they_were_posted(
    listener: tuple[BaseChannelLayer, str],
) -> None:
    layer, channel = listener
    outbox = Outbox()
    sender = await _sending(outbox)
    try:
        for n in range(40):
            outbox.post(GROUP, _update(n))  # never waits: the run goes on while they are sent
        received = await _received(layer, channel, 40)
    finally:
        sender.cancel()
    assert received == list(range(40))


async def test_an_update_that_cannot_be_sent_does_not_hold_back_the_next(
    listener: tuple[BaseChannelLayer, str], caplog: pytest.LogCaptureFixture
) -> None:
    layer, channel = listener
    outbox = Outbox()
    sender = await _sending(outbox)
    try:
        outbox.post(GROUP, _update(1))
        outbox.post("not a valid group name!", _update(2))  # the channel layer refuses it
        outbox.post(GROUP, _update(3))
        received = await _received(layer, channel, 2)
    finally:
        sender.cancel()
    assert received == [1, 3]
    assert "could not send a live update to not a valid group name!" in caplog.text


async def test_a_full_outbox_drops_new_updates_instead_of_making_the_run_wait(
    listener: tuple[BaseChannelLayer, str], caplog: pytest.LogCaptureFixture
) -> None:
    layer, channel = listener
    outbox = Outbox(limit=3)
    with caplog.at_level(logging.WARNING, logger="workers.live"):
        for n in range(5):  # Redis is slow: nothing is being sent yet
            outbox.post(GROUP, _update(n))
    assert caplog.text.count("dropped: 3 are waiting for Redis") == 2
    sender = await _sending(outbox)
    try:
        received = await _received(layer, channel, 3)
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.5):
                await layer.receive(channel)
    finally:
        sender.cancel()
    assert received == [0, 1, 2]
