"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, new conversations, sign-ups and sign-ins. Reads are never throttled. The address is the client's as the
operator's proxies define it (webapp.core.clients), never what a client wrote in `X-Forwarded-For` on its own."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from redis import RedisError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from webapp.core.clients import client_address

# Counted per address even for a signed-in client: each sign-up signs a new user in, who would start a fresh count.
BY_ADDRESS = frozenset({"signup", "login"})

log = logging.getLogger(__name__)

# How often a Redis outage is logged while requests keep counting in memory.
_WARN_EVERY_S = 60.0


class SharedCounters(BaseCache):
    """The throttles' request counts: in the shared cache (Redis), so that every web process counts against the same
    limit; while Redis does not answer, in this process's own memory, so each limit still holds per process instead
    of every write failing."""

    def __init__(self) -> None:
        super().__init__({})
        self._local = LocMemCache("hive-throttles", {})
        self._warned_at = float("-inf")

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        try:
            return cache.get(key, default)
        except RedisError as exc:
            self._away(exc)
            return self._local.get(key, default)

    def set(self, key: str, value: Any, timeout: float | None = None, version: int | None = None) -> None:
        try:
            cache.set(key, value, timeout)
        except RedisError as exc:
            self._away(exc)
            self._local.set(key, value, timeout)

    def clear(self) -> None:
        try:
            cache.clear()
        except RedisError as exc:
            self._away(exc)
        self._local.clear()

    def _away(self, exc: RedisError) -> None:
        now = time.monotonic()
        if now - self._warned_at >= _WARN_EVERY_S:
            self._warned_at = now
            log.warning("rate limits count in this process only: the shared cache did not answer (%r)", exc)


COUNTERS = SharedCounters()


class WriteThrottle(ScopedRateThrottle):
    """DRF's scoped throttle (the view's `throttle_scope`), for unsafe methods only."""

    cache = COUNTERS

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
    cache = COUNTERS

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
