"""Personal API tokens (django-rest-knox): stored only as a hash, shown once when made, expiring, revocable.
Scripts send `Authorization: Token <key>` or `Authorization: Bearer <key>`; everything that takes a token (the REST
API, and anything else that authenticates a script) maps it to a user here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

SCHEMES = (b"token", b"bearer")


def user_for_token(raw: str) -> User | None:
    """The active user a raw token belongs to, or None (unknown, expired or revoked token, inactive user)."""
    found = token_for(raw)
    return found[0] if found is not None else None


def token_for(raw: str) -> tuple[User, str] | None:
    """The active user a raw token belongs to and the token's digest (what identifies it in the database), or None
    (unknown, expired or revoked token, inactive user)."""
    try:
        user, token = TokenAuthentication().authenticate_credentials(raw.strip().encode())
    except exceptions.AuthenticationFailed:
        return None
    return (user, str(token.digest)) if isinstance(user, User) else None


def token_still_valid(*, user_id: int, digest: str) -> bool:
    """Whether the token is still there (not revoked nor replaced), unexpired, and its user still active."""
    live = AuthToken.objects.filter(digest=digest, user_id=user_id, user__is_active=True)
    return bool(live.filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())).exists())


class ApiTokenAuthentication(TokenAuthentication):
    """knox's token authentication, taking the `Bearer` scheme as well as `Token`."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in SCHEMES:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: send 'Token <key>' or 'Bearer <key>'.")
        return self.authenticate_credentials(parts[1])  # type: ignore[no-any-return]
