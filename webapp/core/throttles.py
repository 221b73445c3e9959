"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, sign-ups and sign-ins. Reads are never throttled."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle


class WriteThrottle(ScopedRateThrottle):
    """DRF's scoped throttle (the view's `throttle_scope`), for unsafe methods only."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


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
