"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, new conversations, sign-ups and sign-ins. Reads are never throttled. The address is the client's as the
operator's proxies define it (webapp.core.clients), never what a client wrote in `X-Forwarded-For` on its own."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from webapp.core.clients import client_address

# Counted per address even for a signed-in client: each sign-up signs a new user in, who would start a fresh count.
BY_ADDRESS = frozenset({"signup", "login"})


class WriteThrottle(ScopedRateThrottle):
    """DRF's scoped throttle (the view's `throttle_scope`), for unsafe methods only."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if self.scope in BY_ADDRESS:
            return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
        return super().get_cache_key(request, view)

    def get_ident(self, request: Request) -> str:
        return client_address(request)


class _ScopeForUser(SimpleRateThrottle):
    """The REST API's scope, rate and counter (ScopedRateThrottle's cache key) for a caller that is not a DRF view:
    the MCP endpoint's calls count against the same limits as the same calls through the API."""

    cache_format = ScopedRateThrottle.cache_format

    def __init__(self, scope: str, user: Any) -> None:
        self.scope = scope
        self.user = user
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.user.pk}


def throttle_wait(*, user: Any, scope: str) -> float | None:
    """None when `user` may make one more `scope` request now (it is counted); else the seconds to wait."""
    throttle = _ScopeForUser(scope, user)
    if throttle.allow_request(None, None):  # type: ignore[arg-type]
        return None
    return float(throttle.wait() or 1.0)
