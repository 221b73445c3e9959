"""The live view through the whole stack: a websocket viewer gets frames of the conversation's browser,
and a click sent as input from the picture reaches the page."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from tests.support.group_listener import GroupListener
from tests.support.runs import act, observation
from tests.support.waiting import eventually, until
from webapp.conversations.consumers import FRAME_ACK_TIMEOUT_S
from webapp.conversations.live import viewer_count
from webapp.core.events import conversation_group

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]


async def test_viewer_gets_frames_and_a_click_reaches_the_page(pages: str, stream_factory: Callable[..., Any]) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    client = await sync_to_async(signed_in)(conversation.owner)
    opened = await sync_to_async(act)(client, conversation.pk, "navigate", url=f"{pages}/clicker.html")
    assert opened.status == "succeeded", opened.error

    stream = await stream_factory(conversation.owner, conversation.pk)
    frame = await stream.until(lambda e: e["type"] == "frame", wait_s=20)
    picture = base64.b64decode(frame["data"])
    assert picture[:2] == b"\xff\xd8", "frames are JPEG pictures"
    assert frame["width"] > 0
    assert frame["height"] > 0

    # Acknowledged frames keep coming; unacknowledged ones are held back (latest frame wins).
    await stream.communicator.send_json_to({"type": "frame.ack"})

    # Input is relayed from the holder of the browser's controls only.
    await stream.communicator.send_json_to({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == conversation.owner.username)
    # The button covers the top-left 400x300 CSS pixels of a 1280x800 viewport: click its middle.
    await stream.communicator.send_json_to({"type": "input", "kind": "click", "x": 200 / 1280, "y": 150 / 800})
    await stream.communicator.send_json_to({"type": "frame.ack"})

    def title() -> str:
        result = act(client, conversation.pk, "execute_js", code="document.title")
        return json.dumps(observation(result))

    seen = ""
    for _ in range(20):
        seen = await sync_to_async(title)()
        if "Clicked at" in seen:
            break
    assert "Clicked at 200,150" in seen

    # The page changed: a new frame arrives for the viewer.
    before = len(stream.of_type("frame"))
    await stream.communicator.send_json_to({"type": "frame.ack"})
    await stream.until(lambda e: e["type"] == "frame" and stream.of_type("frame").index(e) >= before, wait_s=10)


async def test_input_of_an_unknown_kind_is_refused(pages: str, stream_factory: Callable[..., Any]) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    await stream.communicator.send_json_to({"type": "input", "kind": "teleport", "x": 0.5, "y": 0.5})
    error = await stream.until(lambda e: e["type"] == "error")
    assert "Unknown input kind" in error["detail"]


async def test_a_second_viewer_of_a_still_page_gets_the_picture_at_once(
    pages: str, stream_factory: Callable[..., Any]
) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    client = await sync_to_async(signed_in)(conversation.owner)
    opened = await sync_to_async(act)(client, conversation.pk, "navigate", url=f"{pages}/clicker.html")
    assert opened.status == "succeeded", opened.error
    first = await stream_factory(conversation.owner, conversation.pk)
    await first.until(lambda e: e["type"] == "frame", wait_s=20)
    second = await stream_factory(conversation.owner, conversation.pk)
    frame = await second.until(lambda e: e["type"] == "frame", wait_s=5)
    assert frame["width"] > 0


async def test_frames_stop_for_a_socket_that_never_acknowledges_and_resume_when_it_does(
    pages: str, stream_factory: Callable[..., Any]
) -> None:
    """A program following a conversation's events never acknowledges frames: the worker stops encoding them (the
    page keeps changing, yet no frame reaches the conversation's group), and an acknowledgement brings them back."""
    conversation = await sync_to_async(ConversationFactory)()
    client = await sync_to_async(signed_in)(conversation.owner)
    opened = await sync_to_async(act)(client, conversation.pk, "navigate", url=f"{pages}/clicker.html")
    assert opened.status == "succeeded", opened.error
    ticking = await sync_to_async(act)(
        client, conversation.pk, "execute_js", code="setInterval(() => { document.title = String(Date.now()); "
        "document.body.style.background = `hsl(${Date.now() % 360}, 60%, 80%)`; }, 40)"
    )  # fmt: skip
    assert ticking.status == "succeeded", ticking.error
    group = GroupListener(conversation_group(conversation.pk))
    await group.start()

    def frames_since(at: float) -> int:
        return sum(message.get("type") == "conversation.frame" for message in group.since(at))

    try:
        stream = await stream_factory(conversation.owner, conversation.pk)
        await stream.until(lambda e: e["type"] == "frame", wait_s=20)  # and never acknowledged

        async def nobody_takes_frames() -> bool:
            return await sync_to_async(viewer_count)(conversation_id=conversation.pk) == 0

        await until(nobody_takes_frames, within_s=FRAME_ACK_TIMEOUT_S + 10, what="the socket to stop taking frames")
        await asyncio.sleep(1.0)  # frames already on their way arrive
        quiet_from = time.monotonic()
        await asyncio.sleep(2.0)  # a window in which no frame may come
        assert frames_since(quiet_from) == 0

        before = len(stream.of_type("frame"))
        acknowledged = time.monotonic()
        await stream.communicator.send_json_to({"type": "frame.ack"})
        await stream.until(lambda e: e["type"] == "frame" and stream.of_type("frame").index(e) >= before, wait_s=10)
        await eventually(lambda: frames_since(acknowledged) > 0, within_s=5, what="frames to reach the group again")
    finally:
        await group.stop()
