"""An MCP session's conversation is kept only while the session is: forgotten when the client ends it (DELETE), when
the SDK says it is gone (404), or when it has been idle as long as the SDK keeps sessions; it is read only by the
user who opened it. The endpoint is driven in this process (its ASGI app, real requests of the older handshake), so
what it remembers can be looked at."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from asgiref.sync import sync_to_async

from tests.factories import UserFactory
from tests.support.waiting import eventually
from webapp.accounts.services import api_token_rotate
from webapp.mcp_server.asgi import McpEndpoint
from webapp.mcp_server.sessions import SessionConversations, session_conversations

LEGACY = "2025-06-18"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_session_is_read_by_its_user_only_and_forgotten_when_it_ends(settings: Any) -> None:
    settings.HIVE_MCP_IDLE_S = 60
    clock = Clock()
    sessions = SessionConversations(clock)
    sessions.remember(user_id=1, session_id="s1", conversation_id=10)
    sessions.remember(user_id=2, session_id="s1", conversation_id=20)  # another user cannot take it over
    assert sessions.conversation(user_id=1, session_id="s1") == 10
    assert sessions.conversation(user_id=2, session_id="s1") is None

    sessions.request_started(user_id=2, session_id="s1")
    sessions.request_ended(user_id=2, session_id="s1", status=200, method="DELETE")  # not theirs to end
    assert sessions.conversation(user_id=1, session_id="s1") == 10
    sessions.request_started(user_id=1, session_id="s1")
    sessions.request_ended(user_id=1, session_id="s1", status=200, method="DELETE")
    assert sessions.conversation(user_id=1, session_id="s1") is None

    sessions.remember(user_id=1, session_id="s2", conversation_id=11)
    sessions.request_ended(user_id=1, session_id="s2", status=404, method="POST")  # the SDK no longer knows it
    assert len(sessions) == 0


def test_a_session_idle_as_long_as_the_sdk_keeps_one_is_forgotten_but_not_while_a_request_is_served(
    settings: Any,
) -> None:
    settings.HIVE_MCP_IDLE_S = 60
    clock = Clock()
    sessions = SessionConversations(clock)
    sessions.remember(user_id=1, session_id="streaming", conversation_id=10)
    sessions.remember(user_id=1, session_id="idle", conversation_id=11)
    sessions.request_started(user_id=1, session_id="streaming")  # a long GET stream
    clock.now += 59
    assert sessions.conversation(user_id=1, session_id="idle") == 11
    clock.now += 2
    assert sessions.conversation(user_id=1, session_id="idle") is None
    clock.now += 600
    assert sessions.conversation(user_id=1, session_id="streaming") == 10
    sessions.request_ended(user_id=1, session_id="streaming", status=200, method="GET")
    clock.now += 61
    assert len(sessions) == 0


@contextlib.asynccontextmanager
async def endpoint_client() -> AsyncIterator[httpx.AsyncClient]:
    endpoint = McpEndpoint()
    try:
        app: Any = endpoint  # an ASGI app (httpx's type wants its scope as a MutableMapping, Hive's is a dict)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost") as http:
            yield http
    finally:
        holder = endpoint._holder  # the session manager's task group, which lives as long as the endpoint
        if holder is not None:
            holder.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await holder


async def _open(http: httpx.AsyncClient, headers: dict[str, str]) -> str:
    opened = await http.post("/mcp", headers=headers, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    })  # fmt: skip
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    ready = await http.post("/mcp", headers={**headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY},
                            json={"jsonrpc": "2.0", "method": "notifications/initialized"})  # fmt: skip
    assert ready.status_code == 202, ready.text
    return session


async def _list_workflows(http: httpx.AsyncClient, headers: dict[str, str], session: str) -> httpx.Response:
    return await http.post(
        "/mcp",
        headers={**headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY},
        json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_workflows", "arguments": {}}},
    )


def _conversation(answer: httpx.Response) -> int:
    data = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
    result: dict[str, Any] = json.loads(data[-1])["result"]
    return int(result["_meta"]["hive/conversation"])


async def _headers() -> tuple[Any, dict[str, str]]:
    user = await sync_to_async(UserFactory)()
    _, token = await sync_to_async(api_token_rotate)(user=user)
    return user, {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_endpoint_forgets_a_sessions_conversation_when_the_client_ends_it() -> None:
    user, headers = await _headers()
    async with endpoint_client() as http:
        session = await _open(http, headers)
        conversation = _conversation(await _list_workflows(http, headers, session))
        assert session_conversations.conversation(user_id=user.pk, session_id=session) == conversation
        assert _conversation(await _list_workflows(http, headers, session)) == conversation  # the same, again

        ended = await http.delete(
            "/mcp", headers={**headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY}
        )
        assert ended.status_code == 200, ended.text
        assert session_conversations.conversation(user_id=user.pk, session_id=session) is None
        gone = await _list_workflows(http, headers, session)
        assert gone.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_endpoint_forgets_a_sessions_conversation_when_the_session_expires(
    settings: Any,
) -> None:
    settings.HIVE_MCP_IDLE_S = 1.0  # the SDK's idle timeout, read when the endpoint starts, and the registry's
    user, headers = await _headers()
    async with endpoint_client() as http:
        session = await _open(http, headers)
        await _list_workflows(http, headers, session)
        assert session_conversations.conversation(user_id=user.pk, session_id=session) is not None
        # Nothing is sent while it idles (a request would keep it alive): the registry is only looked at.
        await eventually(
            lambda: session_conversations.conversation(user_id=user.pk, session_id=session) is None,
            within_s=20,
            what="the idle session's conversation to be forgotten",
        )
        assert (await _list_workflows(http, headers, session)).status_code == 404  # the SDK let it go as well
        assert session_conversations.conversation(user_id=user.pk, session_id=session) is None
