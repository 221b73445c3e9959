"""Who a log line is about: the ids are bound to the context of the request (here) and of the run (in the worker),
and every log record of that context carries them (webapp/settings/observability.py)."""

from __future__ import annotations

from collections.abc import Callable

import structlog
from django.http import HttpRequest, HttpResponse


class RequestContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        structlog.contextvars.clear_contextvars()
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            structlog.contextvars.bind_contextvars(user_id=user.pk)
        structlog.contextvars.bind_contextvars(method=request.method, path=request.path)
        try:
            return self.get_response(request)
        finally:
            structlog.contextvars.clear_contextvars()
