"""The database, from a URL (django-environ): SQLite under `make run`, PostgreSQL in compose and in the test suite."""

from __future__ import annotations

from typing import Any

import environ

env = environ.Env()

# Django's backends, storing text from pages and models that the database would refuse (webapp.core.storable).
_BACKENDS = {
    "django.db.backends.sqlite3": "webapp.core.sqlite",
    "django.db.backends.postgresql": "webapp.core.postgresql",
}


def database_config(url: str) -> dict[str, Any]:
    config: dict[str, Any] = dict(environ.Env.db_url_config(url))
    # A worker's services run one after another on its database thread: opening a connection per call cost more
    # than the writes themselves under load (bench/load.py). Keep connections, checked before reuse.
    config["CONN_MAX_AGE"] = env.int("HIVE_DB_CONN_MAX_AGE", default=60)
    config["CONN_HEALTH_CHECKS"] = True
    config["ENGINE"] = _BACKENDS.get(config["ENGINE"], config["ENGINE"])
    if config["ENGINE"] == "webapp.core.postgresql" and env.bool("HIVE_DB_POOL", default=True):
        # Daphne runs each request's database work on a thread of the request's own, so a kept connection was
        # never used again there: every request connected anew, and PostgreSQL starts a server process for each.
        # A pool per process hands its connections from thread to thread (Django keeps none itself then).
        config["CONN_MAX_AGE"] = 0
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": env.int("HIVE_DB_POOL_MAX", default=20),
            "timeout": 30,
        }
    if config["ENGINE"] == "webapp.core.sqlite":
        # Web and worker are separate processes writing the same file: WAL lets readers go on while one
        # writes, IMMEDIATE transactions avoid the "database is locked" upgrade deadlock, and the timeout
        # lets a writer wait its turn.
        config.setdefault("OPTIONS", {}).update(
            {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
            }
        )
    return config
