"""Token authentication for websockets, so a script can follow a conversation live without a session cookie.

A connection that carries an API token (`?token=<key>` in the URL, or `Authorization: Bearer|Token <key>`) is
authenticated by that token alone: an unknown, expired or revoked token makes it anonymous (the consumer then
refuses it), never a fallback to the cookie. The origin check guards cookie-authenticated sockets from other sites;
a token is not sent by the browser on its own, so token connections skip it (scripts send no Origin header).
Connections without a token go through the cookie stack unchanged.

A socket follows its account: what authenticated it (the session, or the token) is kept on the connection and
checked again while it is open (`credential_valid`), so signing out, revoking the token, or deactivating the user
ends the socket too.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest

from webapp.accounts.tokens import SCHEMES, token_for, token_still_valid
from webapp.core.types import Scope

TOKEN_DIGEST = "hive.token_digest"  # the scope key of the token a connection authenticated with


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
def _user(raw: str) -> tuple[Any, str]:
    found = token_for(raw) if raw else None
    return found if found is not None else (AnonymousUser(), "")


@dataclass(frozen=True, slots=True)
class Credential:
    """What authenticated a websocket: a session (cookie) or an API token, and for whom."""

    user_id: int
    session_key: str | None = None
    token_digest: str | None = None


def credential_of(scope: Scope) -> Credential | None:
    """The credential of an authenticated connection (None for an anonymous one)."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    if scope.get(TOKEN_DIGEST):
        return Credential(user_id=user.pk, token_digest=scope[TOKEN_DIGEST])
    session = scope.get("session")
    return Credential(user_id=user.pk, session_key=getattr(session, "session_key", None))


def credential_valid(credential: Credential) -> bool:
    """Whether the credential still signs its user in: the token not revoked nor expired, or the session not ended
    (signed out, or a changed password) — and the user still active either way."""
    if credential.token_digest is not None:
        return token_still_valid(user_id=credential.user_id, digest=credential.token_digest)
    if not credential.session_key:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(credential.session_key)
    user = get_user(request)  # Django's own check: the session, its backend, the password hash, is_active
    return bool(user.is_authenticated and user.pk == credential.user_id)


class TokenAuthMiddleware:
    """Routes token connections straight to `token_app` with the token's user; the rest to `cookie_app`."""

    def __init__(self, token_app: Any, cookie_app: Any) -> None:
        self.token_app = token_app
        self.cookie_app = cookie_app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        raw = token_from_scope(scope)
        if raw is None:
            return await self.cookie_app(scope, receive, send)
        user, digest = await _user(raw)
        return await self.token_app({**scope, "user": user, TOKEN_DIGEST: digest}, receive, send)
