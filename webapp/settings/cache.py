"""The cache: rate-limit counters, shared by every web process."""

from urllib.parse import urlsplit, urlunsplit

import environ

from webapp.settings.celery import REDIS_URL

env = environ.Env()


def redis_next_database(url: str) -> str:
    """The same Redis server's next numbered database (redis://host:6379/0 -> redis://host:6379/1)."""
    parts = urlsplit(url)
    number = parts.path.strip("/")
    return urlunsplit(parts._replace(path=f"/{int(number) + 1 if number.isdigit() else 1}"))


# The rate limits' counters (DRF's throttles use the default cache) are shared by every web process, as a scaled-out
# `web` service runs several: in Redis, in a database of their own so that clearing them never touches the queue
# or the live events. HIVE_CACHE_URL moves them (a Redis with one database only: any URL of another server).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env("HIVE_CACHE_URL", default=redis_next_database(REDIS_URL)),
        "KEY_PREFIX": "hive",
        # A Redis that does not answer must not hold a request up for long: the throttles then count in memory.
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}
