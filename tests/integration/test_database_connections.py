"""The web server's database connections: its requests share a few kept connections instead of each opening one.

Daphne runs each request's database work on a thread of the request's own, so a connection Django keeps per thread
was never used again: every request connected anew, and PostgreSQL started a server process for each. The
PostgreSQL server's own log, with connections logged, counts the connections the requests made.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from django.db import connection

from tests.support.processes import suite_database_url, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

REQUESTS = 20


def _setting(name: str) -> str:
    # A new connection: a server process reads the configuration when it starts.
    with psycopg.connect(suite_database_url(), autocommit=True) as fresh:
        row = fresh.execute(f"SHOW {name}").fetchone()
    return str(row[0]) if row else ""


@pytest.fixture
def logged_connections() -> Iterator[Path]:
    """The server's log file, with every new connection logged while the test runs."""
    if "HIVE_TEST_DATABASE_URL" in os.environ or connection.vendor != "postgresql":
        pytest.skip("reads the log of the suite's own PostgreSQL server")
    with connection.cursor() as cursor:
        cursor.execute("SHOW data_directory")
        data = Path(cursor.fetchone()[0])
        cursor.execute("ALTER SYSTEM SET log_connections = on")
        cursor.execute("SELECT pg_reload_conf()")
    try:
        wait_until(lambda: _setting("log_connections") == "on", 10, "PostgreSQL to log connections")
        yield data.parent / "server.log"  # where the suite's server writes its log (tests/support/postgres.py)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER SYSTEM RESET log_connections")
            cursor.execute("SELECT pg_reload_conf()")


def test_requests_to_the_web_server_reuse_a_few_database_connections(web_server: str, logged_connections: Path) -> None:
    database = connection.settings_dict["NAME"]
    with httpx.Client(base_url=web_server, timeout=30) as client:
        client.get("/readyz")  # the server's first database use, which may open its connections
        start = logged_connections.stat().st_size
        for _ in range(REQUESTS):
            answer = client.get("/readyz")  # reads the database on every call
            assert answer.json()["checks"]["database"]["ok"]
    with logged_connections.open(errors="replace") as log:
        log.seek(start)
        made = [line for line in log if "connection authorized" in line and f"database={database}" in line]
    assert len(made) <= 2, f"{REQUESTS} requests opened {len(made)} database connections"
