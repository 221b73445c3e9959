"""The signed-in user of an API request, as the type services take."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request


def request_user(request: Request) -> User:
    """Views that reach this are behind IsAuthenticated; an anonymous user here is a bug, answered as 401/403."""
    if not isinstance(request.user, User):
        raise NotAuthenticated
    return request.user
