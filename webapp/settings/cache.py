"""The cache: rate-limit counters, shared by every web process."""

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from webapp.settings.celery import REDIS_URL

env = environ.Env()

_SCHEMES = ("redis", "rediss", "unix")
# A Redis server has databases 0 to 15 unless configured otherwise.
_LAST_DATABASE = 15


def redis_next_database(url: str) -> str:
    """The same Redis server's next numbered database: redis://host:6379/0 -> redis://host:6379/1, and for a socket
    unix:///run/redis.sock?db=0 -> unix:///run/redis.sock?db=1 (a `db` in the query wins over the path, as in redis-py).
    """
    parts = urlsplit(url)
    if parts.scheme not in _SCHEMES:
        raise ImproperlyConfigured(f"REDIS_URL={url!r} is not a Redis URL (redis://, rediss:// or unix://)")
    query = parse_qsl(parts.query, keep_blank_values=True)
    given = [value for key, value in query if key == "db"]
    number = given[-1] if given else ("0" if parts.scheme == "unix" else parts.path.strip("/") or "0")
    if not number.isdigit() or int(number) >= _LAST_DATABASE:
        raise ImproperlyConfigured(
            f"REDIS_URL={url!r} leaves no next database for the rate limits' counters: set HIVE_CACHE_URL"
        )
    following = str(int(number) + 1)
    query = [(key, value) for key, value in query if key != "db"]
    if parts.scheme == "unix":
        return f"unix://{parts.netloc}{parts.path}?{urlencode([*query, ('db', following)])}"
    return urlunsplit(parts._replace(path=f"/{following}", query=urlencode(query)))


def _cache_url() -> str:
    url = env.str("HIVE_CACHE_URL", default="") or redis_next_database(REDIS_URL)
    if urlsplit(url).scheme not in _SCHEMES:
        raise ImproperlyConfigured(f"HIVE_CACHE_URL={url!r} is not a Redis URL (redis://, rediss:// or unix://)")
    if "," in url:
        raise ImproperlyConfigured(f"HIVE_CACHE_URL={url!r} names several servers; the rate limits count on one")
    return url


# The rate limits' counters (webapp.core.throttles counts on the default cache's Redis) are shared by every web
# process, as a scaled-out `web` service runs several: in Redis, in a database of their own so that clearing them
# never touches the queue or the live events. HIVE_CACHE_URL moves them (a Redis with one database only: any URL of
# another server).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": _cache_url(),
        "KEY_PREFIX": "hive",
        "OPTIONS": {
            # Nothing read from Redis is unpickled.
            "serializer": "webapp.core.throttles.JsonSerializer",
            # A Redis that does not answer must not hold a request up for long: the throttles then count in memory.
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.5,
        },
    }
}
