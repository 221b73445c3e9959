"""Token authentication for websockets, so a script can follow a conversation live without a session cookie.

A connection that carries an API token (`?token=<key>` in the URL, or `Authorization: Bearer|Token <key>`) is
authenticated by that token alone: an unknown, expired or revoked token makes it anonymous (the consumer then
refuses it), never a fallback to the cookie. The origin check guards cookie-authenticated sockets from other sites;
a token is not sent by the browser on its own, so token connections skip it (scripts send no Origin header).
Connections without a token go through the cookie stack unchanged.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from webapp.accounts.tokens import SCHEMES, user_for_token
from webapp.core.types import Scope


def token_from_scope(scope: Scope) -> str | None:
    """The raw token a websocket connection carries, or None when it carries none."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            parts = value.split()
            if len(parts) == 2 and parts[0].lower() in SCHEMES:
                return str(parts[1].decode("latin-1"))
            return ""  # an Authorization header that is not a token: authenticates no one
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if "token" in query:
        return query["token"][0]
    return None


@database_sync_to_async
def _user(raw: str) -> Any:
    return (user_for_token(raw) if raw else None) or AnonymousUser()


class TokenAuthMiddleware:
    """Routes token connections straight to `token_app` with the token's user; the rest to `cookie_app`."""

    def __init__(self, token_app: Any, cookie_app: Any) -> None:
        self.token_app = token_app
        self.cookie_app = cookie_app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        raw = token_from_scope(scope)
        if raw is None:
            return await self.cookie_app(scope, receive, send)
        return await self.token_app({**scope, "user": await _user(raw)}, receive, send)
