"""Channels over Redis. Frames are many and small: the capacity is sized for them, and they may drop."""

import environ

env = environ.Env()

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # redis-py 8 reads with a 5 s socket timeout by default, which is exactly channels_redis's blocking
            # pop: every idle receive would fail. A longer timeout keeps dead connections detectable.
            "hosts": [
                {
                    "address": env("CHANNELS_REDIS_URL", default=env("REDIS_URL", default="redis://127.0.0.1:6379/0")),
                    "socket_timeout": 30,
                }
            ],
            "capacity": 1000,
            "expiry": 30,
            "prefix": "hive:asgi",
        },
    }
}
