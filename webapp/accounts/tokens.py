"""Personal API tokens (django-rest-knox): stored only as a hash, shown once when made, expiring, revocable.
Scripts send `Authorization: Token <key>` or `Authorization: Bearer <key>`; everything that takes a token (the REST
API, and anything else that authenticates a script) maps it to a user here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from knox.auth import TokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

SCHEMES = (b"token", b"bearer")


def user_for_token(raw: str) -> User | None:
    """The active user a raw token belongs to, or None (unknown, expired or revoked token, inactive user)."""
    try:
        user, _ = TokenAuthentication().authenticate_credentials(raw.strip().encode())
    except exceptions.AuthenticationFailed:
        return None
    return user if isinstance(user, User) else None


class ApiTokenAuthentication(TokenAuthentication):
    """knox's token authentication, taking the `Bearer` scheme as well as `Token`."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in SCHEMES:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: send 'Token <key>' or 'Bearer <key>'.")
        return self.authenticate_credentials(parts[1])  # type: ignore[no-any-return]
