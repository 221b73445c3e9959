"""The clipboard probe through the whole stack, as two strangers would try it on one worker: Alice copies a token
in her conversation, Bob pastes in his, through the REST API's actions and through the live view's input. Bob never
gets the token; Alice, in another tab of her own conversation, does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from tests.integration.conftest import EventStream, open_stream, signed_in
from tests.security.test_clipboard_isolation import PAGES, TOKEN
from tests.support.runs import act, observation
from tests.support.static_server import serve_directory
from tests.support.waiting import until
from webapp.conversations.models import Conversation

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
    pytest.mark.timeout(300),  # a dozen runs one after the other, each a real action on the worker
]

# The text box's value and what the page's paste handlers saw, once a paste has reached them.
READ_BOX = """return await new Promise((done) => {
  const look = () => (window.pasted.length ? done(document.getElementById("box").value + "|" + window.pasted.join())
                                           : setTimeout(look, 20));
  look();
});"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("clipboard-stack-pages")
    for name, body in PAGES.items():
        (folder / name).write_text(body)
    with serve_directory(folder) as base:
        yield base


def acted(client: APIClient, conversation: Conversation, action: str, **arguments: Any) -> str:
    run = act(client, conversation.pk, action, **arguments)
    step = run.steps.get()
    assert step.status == "succeeded", step.error
    return json.dumps(observation(run))


def script_value(client: APIClient, conversation: Conversation, code: str) -> Any:
    """What `execute_js` gave back, as the page's own value."""
    return json.loads(json.loads(acted(client, conversation, "execute_js", code=code))["data"]["result"])


def box_of(client: APIClient, conversation: Conversation) -> str:
    return acted(client, conversation, "execute_js", code=READ_BOX)


def test_a_token_copied_through_the_api_is_never_what_another_user_pastes(pages: str) -> None:
    alice, bob = ConversationFactory(), ConversationFactory()
    as_alice, as_bob = signed_in(alice.owner), signed_in(bob.owner)
    acted(as_alice, alice, "navigate", url=f"{pages}/token.html")
    acted(as_alice, alice, "press_key", selector="#token", key="a", modifiers=["ctrl"])
    acted(as_alice, alice, "press_key", key="c", modifiers=["ctrl"])

    acted(as_bob, bob, "navigate", url=f"{pages}/paste.html")
    acted(as_bob, bob, "press_key", selector="#box", key="v", modifiers=["ctrl"])
    assert TOKEN not in box_of(as_bob, bob)
    acted(as_bob, bob, "execute_js", code="window.pasted = []")
    acted(as_bob, bob, "click", selector="#box", button="middle")
    assert TOKEN not in box_of(as_bob, bob)
    read = acted(as_bob, bob, "execute_js", code="return await navigator.clipboard.readText().catch((e) => e.name)")
    assert TOKEN not in read
    assert "NotAllowedError" in read

    acted(as_alice, alice, "open_tab", url=f"{pages}/paste.html")
    acted(as_alice, alice, "press_key", selector="#box", key="v", modifiers=["ctrl"])
    assert f"{TOKEN}|{TOKEN}" in box_of(as_alice, alice), "copy and paste within one conversation still work"


@pytest.mark.asyncio
async def test_a_token_copied_at_the_live_view_is_never_what_another_user_pastes_there(pages: str) -> None:
    alice, bob = await sync_to_async(ConversationFactory)(), await sync_to_async(ConversationFactory)()
    as_alice, as_bob = await sync_to_async(signed_in)(alice.owner), await sync_to_async(signed_in)(bob.owner)
    await sync_to_async(acted)(as_alice, alice, "navigate", url=f"{pages}/token.html")
    await sync_to_async(acted)(as_bob, bob, "navigate", url=f"{pages}/paste.html")
    alice_view, bob_view = await holding_controls(alice), await holding_controls(bob)
    try:
        await probe(pages, alice, bob, alice_view, bob_view)
    finally:
        for view in (alice_view, bob_view):
            await view.communicator.disconnect()


async def probe(
    pages: str, alice: Conversation, bob: Conversation, alice_view: EventStream, bob_view: EventStream
) -> None:
    as_alice, as_bob = await sync_to_async(signed_in)(alice.owner), await sync_to_async(signed_in)(bob.owner)

    async def page_says(client: APIClient, conversation: Conversation, code: str, expected: str) -> None:
        """Wait until `code`, run in the conversation's active tab, gives exactly `expected`."""

        async def check() -> bool:
            return await sync_to_async(script_value)(client, conversation, code) == expected

        await until(check, 30, f"{code} to give {expected}")

    # Input events are replayed as they come: each is let to land before the next.
    await send_input(alice_view, {"kind": "click", "x": 100 / 1280, "y": 15 / 800})
    await page_says(as_alice, alice, "document.activeElement.id", "token")
    await send_input(alice_view, {"kind": "key", "key": "a", "modifiers": ["control"]})
    await page_says(as_alice, alice, "String(document.activeElement.selectionEnd)", str(len(TOKEN)))
    await send_input(alice_view, {"kind": "key", "key": "c", "modifiers": ["control"]})
    await page_says(as_alice, alice, "String(window.copies)", "1")
    await sync_to_async(acted)(as_alice, alice, "open_tab", url=f"{pages}/paste.html")
    await send_input(alice_view, {"kind": "click", "x": 100 / 1280, "y": 50 / 800})
    await page_says(as_alice, alice, "document.activeElement.id", "box")
    await send_input(alice_view, {"kind": "key", "key": "v", "modifiers": ["control"]})
    await page_says(as_alice, alice, "String(window.pasted.length)", "1")
    assert f"{TOKEN}|{TOKEN}" in await sync_to_async(box_of)(as_alice, alice), "Alice's copy is hers to paste"

    await send_input(bob_view, {"kind": "click", "x": 100 / 1280, "y": 50 / 800})
    await page_says(as_bob, bob, "document.activeElement.id", "box")
    await send_input(bob_view, {"kind": "key", "key": "v", "modifiers": ["control"]})
    await send_input(bob_view, {"kind": "key", "key": "Insert", "modifiers": ["shift"]})
    await send_input(bob_view, {"kind": "click", "x": 100 / 1280, "y": 50 / 800, "button": "middle"})
    await page_says(as_bob, bob, "String(window.pasted.length)", "3")
    assert TOKEN not in await sync_to_async(box_of)(as_bob, bob)


async def holding_controls(conversation: Conversation) -> EventStream:
    """The owner's live view of the conversation, holding its controls (only the holder's input is replayed)."""
    owner = await sync_to_async(lambda: conversation.owner)()
    connected, code, stream = await open_stream(owner, conversation.pk)
    assert connected, f"websocket refused with code {code}"
    await stream.until(lambda e: e["type"] == "hello")
    await stream.communicator.send_json_to({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == owner.username)
    return stream


async def send_input(stream: EventStream, event: dict[str, Any]) -> None:
    await stream.communicator.send_json_to({"type": "input", **event})
