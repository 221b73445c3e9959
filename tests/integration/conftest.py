from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from tests.support.static_server import serve_directory


class EventStream:
    """A websocket client on a conversation, collecting every event it receives."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.events: list[dict[str, Any]] = []

    async def until(self, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 20) -> dict[str, Any]:
        for event in self.events:
            if predicate(event):
                return event
        while True:
            event = await self.communicator.receive_json_from(timeout=wait_s)
            self.events.append(event)
            if predicate(event):
                return event

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == kind]


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_stream(user: Any, conversation_id: int) -> tuple[bool, int | None, EventStream]:
    from webapp.asgi import application

    cookie = await sync_to_async(session_cookie)(user) if user is not None else ""
    communicator = WebsocketCommunicator(
        application,
        f"/ws/conversations/{conversation_id}/",
        headers=[
            (b"cookie", f"sessionid={cookie}".encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ],
    )
    connected, code = await communicator.connect(timeout=5)
    return connected, code, EventStream(communicator)


@pytest_asyncio.fixture
async def stream_factory() -> AsyncIterator[Callable[..., Any]]:
    opened: list[EventStream] = []

    async def factory(user: Any, conversation_id: int) -> EventStream:
        connected, code, stream = await open_stream(user, conversation_id)
        assert connected, f"websocket refused with code {code}"
        opened.append(stream)
        await stream.until(lambda e: e["type"] == "hello")
        return stream

    yield factory
    for stream in opened:
        await stream.communicator.disconnect()


@pytest.fixture
def run_done() -> Callable[[dict[str, Any]], bool]:
    return lambda e: e["type"] == "run.updated" and e["run"]["status"] in ("succeeded", "failed", "aborted")


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    """The integration tests' own pages (tests/integration/pages), served from 127.0.0.1."""
    with serve_directory(Path(__file__).parent / "pages") as url:
        yield url


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client
