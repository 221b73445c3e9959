"""The `/mcp` endpoint as an ASGI application, in front of the SDK's streamable HTTP session manager.

It decides who is calling before the SDK sees anything: the Host must be one Django serves, and the request must
carry a valid API token (`Authorization: Bearer <token>`, or `Token <token>`); anything else is answered here with a
JSON error. The session manager needs a running task group of its own; Daphne has no lifespan events, so it is
started on the first request, in the server's event loop, and lives as long as the process.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from webapp.accounts.tokens import SCHEMES, user_for_token
from webapp.core.types import Scope
from webapp.mcp_server.server import build_server
from webapp.mcp_server.sessions import session_conversations


async def _answer(send: Any, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],  # fmt: skip
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((value for key, value in scope.get("headers", []) if key.lower() == name), None)


@database_sync_to_async
def _user(raw: str) -> Any:
    return user_for_token(raw)


class McpEndpoint:
    def __init__(self) -> None:
        self._manager: StreamableHTTPSessionManager | None = None
        self._starting = asyncio.Lock()
        self._holder: asyncio.Task[None] | None = None

    async def _started(self) -> StreamableHTTPSessionManager:
        async with self._starting:
            if self._manager is None:
                manager = StreamableHTTPSessionManager(
                    app=build_server(),
                    session_idle_timeout=settings.HIVE_MCP_IDLE_S,
                    max_sessions=settings.HIVE_MCP_MAX_SESSIONS,
                    # The Host is checked against ALLOWED_HOSTS here, before the SDK; a token, not a cookie,
                    # authenticates, so another site's page cannot borrow a visitor's credentials.
                    security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
                )
                ready = asyncio.Event()

                async def hold() -> None:
                    async with manager.run():
                        ready.set()
                        await asyncio.Event().wait()

                self._holder = asyncio.get_running_loop().create_task(hold())
                await ready.wait()
                self._manager = manager
            return self._manager

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        host = (_header(scope, b"host") or b"").decode("latin-1")
        domain, _ = split_domain_port(host)
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            await _answer(send, 400, "This host is not served here.")
            return
        parts = (_header(scope, b"authorization") or b"").split()
        user = None
        if len(parts) == 2 and parts[0].lower() in SCHEMES:
            user = await _user(parts[1].decode("latin-1"))
        if user is None:
            await _answer(
                send,
                401,
                "Send your Hive API token as 'Authorization: Bearer <token>' (make one in Settings or at "
                "/api/auth/token/).",
                [(b"www-authenticate", b'Bearer realm="hive"')],
            )
            return
        # The SDK binds a session to the identity that opened it: another user's token cannot use its id.
        identity = AuthenticatedUser(AccessToken(token="", client_id=f"hive-user-{user.pk}", scopes=[]))
        manager = await self._started()
        session_id = (_header(scope, b"mcp-session-id") or b"").decode("latin-1")
        if not session_id:
            await manager.handle_request({**scope, "user": identity, "hive_user": user}, receive, send)
            return
        # The session's conversation is kept while the session is (sessions.py): each request of it is followed.
        answered: list[int] = []

        async def send_watched(message: Any) -> None:
            if message["type"] == "http.response.start":
                answered.append(int(message["status"]))
            await send(message)

        session_conversations.request_started(user_id=user.pk, session_id=session_id)
        try:
            await manager.handle_request({**scope, "user": identity, "hive_user": user}, receive, send_watched)
        finally:
            session_conversations.request_ended(
                user_id=user.pk, session_id=session_id, status=answered[0] if answered else None,
                method=str(scope.get("method", "")),
            )  # fmt: skip


endpoint = McpEndpoint()
