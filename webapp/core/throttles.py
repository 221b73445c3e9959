"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, new conversations, sign-ups and sign-ins. Reads are never throttled. The address is the client's as the
operator's proxies define it (webapp.core.clients), never what a client wrote in `X-Forwarded-For` on its own."""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS
from django.core.signals import setting_changed
from django.dispatch import receiver
from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis import RedisError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from webapp.core.clients import client_address

# Counted per address even for a signed-in client: each sign-up signs a new user in, who would start a fresh count.
BY_ADDRESS = frozenset({"signup", "login"})

log = logging.getLogger(__name__)

# After Redis failed once, the counters stay in this process's memory this long before Redis is tried again: no
# request waits on a Redis that is away.
AWAY_S = 30.0
# A Redis that does not answer must not hold a request up for long.
REDIS_TIMEOUT_S = 0.5


class JsonSerializer:
    """The cache's values as JSON: nothing read from Redis is unpickled."""

    def dumps(self, obj: Any) -> bytes:
        return json.dumps(obj).encode()

    def loads(self, data: bytes) -> Any:
        return json.loads(data)


class SharedCounters:
    """The throttles' request counts, as a moving window per key: in Redis (the default cache's server and
    database), so that every web process counts against the same limit, with each request counted and checked in one
    step there (a count read, then written back, lets requests arriving together at two processes each see room for
    one more); while Redis does not answer, in this process's own memory, so each limit still holds per process
    instead of every write failing."""

    def __init__(self) -> None:
        # Requests run on several threads: one set of counters each for the process, built once.
        self._lock = threading.RLock()
        self._local: MovingWindowRateLimiter | None = None
        self._shared: MovingWindowRateLimiter | None = None
        self._away_until = float("-inf")

    def reset(self) -> None:
        """Use the cache settings as they are now, from no count (tests change them)."""
        with self._lock:
            self._shared, self._local, self._away_until = None, None, float("-inf")

    def _in_memory(self) -> MovingWindowRateLimiter:
        with self._lock:
            if self._local is None:
                self._local = MovingWindowRateLimiter(MemoryStorage())
            return self._local

    def _limiter(self) -> MovingWindowRateLimiter:
        if time.monotonic() < self._away_until:
            return self._in_memory()
        with self._lock:
            if self._shared is None:
                try:
                    self._shared = self._in_redis()
                except ValueError as exc:  # a setting the start did not check: still a limit, per process
                    log.error("rate limits count in each web process on its own: %s", exc)
                    self._shared = self._in_memory()
            return self._shared

    @staticmethod
    def _in_redis() -> MovingWindowRateLimiter:
        cache = settings.CACHES[DEFAULT_CACHE_ALIAS]
        if not str(cache.get("BACKEND", "")).endswith("RedisCache"):
            raise ValueError(f"the default cache ({cache.get('BACKEND')}) is not Redis")
        location = cache.get("LOCATION")
        if not isinstance(location, str) or "," in location:
            raise ValueError(f"the default cache's LOCATION ({location!r}) is not one Redis URL")
        # One connection pool for the process, whatever thread a request runs on.
        pool = redis.ConnectionPool.from_url(
            location, socket_connect_timeout=REDIS_TIMEOUT_S, socket_timeout=REDIS_TIMEOUT_S
        )
        storage = RedisStorage("redis://", connection_pool=pool, key_prefix=f"{cache.get('KEY_PREFIX', 'hive')}:limits")
        return MovingWindowRateLimiter(storage)

    def hit(self, key: str, allowed: int, window_s: int) -> bool:
        """Count one request under `key` if fewer than `allowed` were counted in the last `window_s` seconds."""
        item = RateLimitItemPerSecond(allowed, window_s)
        limiter = self._limiter()
        try:
            return limiter.hit(item, key)
        except RedisError as exc:
            self._away(exc)
            return self._in_memory().hit(item, key)

    def wait(self, key: str, allowed: int, window_s: int) -> float:
        """Seconds until `key` has room for one more request."""
        item = RateLimitItemPerSecond(allowed, window_s)
        limiter = self._limiter()
        try:
            stats = limiter.get_window_stats(item, key)
        except RedisError as exc:
            self._away(exc)
            stats = self._in_memory().get_window_stats(item, key)
        return max(stats.reset_time - time.time(), 0.0)

    def clear(self) -> None:
        """Forget every count (tests start from none)."""
        self.reset()
        try:
            self._limiter().storage.reset()
        except RedisError as exc:
            self._away(exc)
        self._in_memory().storage.reset()

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


class _Counted(SimpleRateThrottle):
    """DRF's throttle with its count kept in COUNTERS: same rates, keys and answers (429 with Retry-After)."""

    # Set from the rate by DRF (ScopedRateThrottle only once it knows the view's scope).
    num_requests: int | None = None
    duration: int | None = None
    key: str | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None or self.num_requests is None or self.duration is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        return COUNTERS.hit(self.key, self.num_requests, self.duration)

    def wait(self) -> float | None:
        if self.key is None or self.num_requests is None or self.duration is None:
            return None
        return COUNTERS.wait(self.key, self.num_requests, self.duration)


class WriteThrottle(ScopedRateThrottle, _Counted):
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


class _ScopeForUser(_Counted):
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
