"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, new conversations, sign-ups and sign-ins. Reads are never throttled. The address is the client's as the
operator's proxies define it (webapp.core.clients), never what a client wrote in `X-Forwarded-For` on its own."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from redis import RedisError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from webapp.core.clients import client_address

# Counted per address even for a signed-in client: each sign-up signs a new user in, who would start a fresh count.
BY_ADDRESS = frozenset({"signup", "login"})

log = logging.getLogger(__name__)

# After Redis failed once, the counters stay in this process's memory this long before Redis is tried again: one
# store for reading and writing a count (a Redis that answers reads but refuses writes would otherwise never count),
# and no request waits on a Redis that is away.
AWAY_S = 30.0


class JsonSerializer:
    """The cache's values as JSON (the counters are lists of timestamps): nothing read from Redis is unpickled."""

    def dumps(self, obj: Any) -> bytes:
        return json.dumps(obj).encode()

    def loads(self, data: bytes) -> Any:
        return json.loads(data)


class SharedCounters(BaseCache):
    """The throttles' request counts: in the shared cache (Redis), so that every web process counts against the same
    limit; while Redis does not answer, in this process's own memory, so each limit still holds per process instead
    of every write failing."""

    def __init__(self) -> None:
        super().__init__({})
        self._local = LocMemCache("hive-throttles", {})
        self._shared: BaseCache | None = None
        self._away_until = float("-inf")

    def reset(self) -> None:
        """Use the cache settings as they are now (tests change them)."""
        self._shared, self._away_until = None, float("-inf")

    def _store(self) -> BaseCache:
        if time.monotonic() < self._away_until:
            return self._local
        if self._shared is None:
            # One client and connection pool for the process: Django's `cache` is built anew for each request under
            # ASGI (its connections are per async context), which would connect to Redis for every write.
            self._shared = caches.create_connection(DEFAULT_CACHE_ALIAS)
        return self._shared

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        store = self._store()
        try:
            return store.get(key, default)
        except RedisError as exc:
            self._away(exc)
            return self._local.get(key, default)

    def set(self, key: str, value: Any, timeout: float | None = None, version: int | None = None) -> None:
        store = self._store()
        try:
            store.set(key, value, timeout)
        except RedisError as exc:
            self._away(exc)
            self._local.set(key, value, timeout)

    def clear(self) -> None:
        self.reset()
        try:
            self._store().clear()
        except RedisError as exc:
            self._away(exc)
        self._local.clear()

    def _away(self, exc: RedisError) -> None:
        self._away_until = time.monotonic() + AWAY_S
        log.warning(
            "rate limits count in this process only for %.0f s: the shared cache did not answer (%r)", AWAY_S, exc
        )


COUNTERS = SharedCounters()


@receiver(setting_changed)
def _follow_cache_settings(*, setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        COUNTERS.reset()


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
