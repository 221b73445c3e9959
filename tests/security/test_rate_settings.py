"""The operator sets each rate limit in the environment (HIVE_RATE_<SCOPE>): a server started with one applies it,
and a malformed value stops the start with the variable's name instead of failing requests later."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from tests.support.processes import ROOT, free_port, service_env, start_daphne, suite_database_url
from webapp.core.throttles import COUNTERS, WriteThrottle, _ScopeForUser, throttle_wait
from webapp.settings.api import throttle_rates
from webapp.settings.cache import _cache_url, redis_next_database

DEFAULTS = {"runs": "30/minute", "login": "60/hour"}


def test_each_scope_reads_its_own_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIVE_RATE_RUNS", "500/hour")
    monkeypatch.setenv("HIVE_RATE_LOGIN", "none")
    assert throttle_rates(DEFAULTS) == {"runs": "500/hour", "login": None}
    monkeypatch.delenv("HIVE_RATE_RUNS")
    assert throttle_rates(DEFAULTS)["runs"] == "30/minute"


@pytest.mark.parametrize("value", ["30/fortnight", "30 per minute", "thirty/minute", "30/mango", "/minute", ""])
def test_a_malformed_rate_is_refused_with_the_variables_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("HIVE_RATE_RUNS", value)
    with pytest.raises(ImproperlyConfigured, match=r"HIVE_RATE_RUNS=.* is not a rate: .* HIVE_RATE_RUNS=30/minute"):
        throttle_rates(DEFAULTS)


def test_the_server_does_not_start_with_a_malformed_rate() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={
            **service_env(redis_url="redis://127.0.0.1:9/0", database_url="sqlite:///unused"),
            "HIVE_RATE_ACTIONS": "9/week",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "HIVE_RATE_ACTIONS='9/week' is not a rate" in done.stderr


@pytest.fixture
def strict_server(redis_url: str, transactional_db: None) -> Iterator[str]:
    cache.clear()  # the counters are shared: other tests' sign-ins from this address are in them
    env = service_env(redis_url=redis_url, database_url=suite_database_url(), extra={"HIVE_RATE_LOGIN": "2/hour"})
    server, url = start_daphne(env)
    yield url
    server.stop()


def test_a_server_started_with_a_rate_applies_it(strict_server: str) -> None:
    with httpx.Client(base_url=strict_server, timeout=30) as client:
        client.get("/api/auth/csrf/")
        headers = {"X-CSRFToken": client.cookies["csrftoken"], "Referer": strict_server + "/"}
        answers = [
            client.post("/api/auth/login/", json={"username": "nobody", "password": "guess-1"}, headers=headers)
            for _ in range(3)
        ]
    assert [answer.status_code for answer in answers] == [400, 400, 429]
    assert "throttled" in answers[2].json()["detail"]


def _sign_in_attempt(url: str, number: int) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=30) as client:
        client.get("/api/auth/csrf/")
        headers = {"X-CSRFToken": client.cookies["csrftoken"], "Referer": url + "/"}
        return client.post(
            "/api/auth/login/", json={"username": "nobody", "password": f"guess-{number}"}, headers=headers
        )


@pytest.fixture
def two_web_processes(redis_url: str, transactional_db: None) -> Iterator[list[str]]:
    """Two web servers of one deployment, as a scaled-out `web` service runs them."""
    cache.clear()
    env = service_env(redis_url=redis_url, database_url=suite_database_url(), extra={"HIVE_RATE_LOGIN": "3/hour"})
    started = [start_daphne(env) for _ in range(2)]
    yield [url for _, url in started]
    for server, _ in started:
        server.stop()


def test_web_processes_of_one_deployment_count_against_the_same_limit(two_web_processes: list[str]) -> None:
    answers = [_sign_in_attempt(two_web_processes[n % 2], n).status_code for n in range(5)]
    assert answers == [400, 400, 400, 429, 429], "three attempts in all, whichever process answered them"


def test_attempts_arriving_together_at_two_processes_are_each_counted(two_web_processes: list[str]) -> None:
    """An attacker sends many guesses at once, to every process: each is counted before the next one is judged."""
    clients = []
    for number in range(24):
        url = two_web_processes[number % 2]
        client = httpx.Client(base_url=url, timeout=60)
        client.get("/api/auth/csrf/")
        clients.append((client, {"X-CSRFToken": client.cookies["csrftoken"], "Referer": url + "/"}))
    together = threading.Barrier(len(clients))

    def attempt(number: int) -> int:
        client, headers = clients[number]
        together.wait(timeout=30)
        body = {"username": "nobody", "password": f"guess-{number}"}
        return client.post("/api/auth/login/", json=body, headers=headers).status_code

    try:
        with ThreadPoolExecutor(max_workers=len(clients)) as pool:
            answers = list(pool.map(attempt, range(len(clients))))
    finally:
        for client, _ in clients:
            client.close()
    assert sorted(answers) == [400] * 3 + [429] * 21, f"{answers.count(400)} of 24 guesses at once were judged"


def test_mcp_calls_arriving_together_are_each_counted(
    redis_url: str, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(_ScopeForUser, "THROTTLE_RATES", {"actions": "5/minute"})
    owner = User.objects.create_user("racer")
    together = threading.Barrier(32)

    def call(_: int) -> bool:
        together.wait(timeout=30)
        return throttle_wait(user=owner, scope="actions") is None

    with ThreadPoolExecutor(max_workers=32) as pool:
        allowed = list(pool.map(call, range(32)))
    assert allowed.count(True) == 5, f"{allowed.count(True)} of 32 calls at once got through a limit of 5"


def _three_guesses_at_two_an_hour(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Three sign-in attempts in this process, from no count, with the sign-in limit at 2/hour."""
    COUNTERS.clear()
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"login": "2/hour"})
    client = APIClient()
    return [
        client.post("/api/auth/login/", {"username": "nobody", "password": f"guess-{n}"}, format="json").status_code
        for n in range(3)
    ]


def test_while_the_shared_counters_are_away_each_process_still_applies_the_limit(
    db: None, settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/1",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    assert _three_guesses_at_two_an_hour(monkeypatch) == [400, 400, 429]
    assert "rate limits count in this process only" in caplog.text


@pytest.mark.parametrize(
    ("redis_url", "counters_url"),
    [
        ("redis://redis:6379/0", "redis://redis:6379/1"),
        ("redis://redis:6379", "redis://redis:6379/1"),
        (
            "rediss://:secret@cache.example:6380/3?ssl_cert_reqs=none",
            "rediss://:secret@cache.example:6380/4?ssl_cert_reqs=none",
        ),
        ("redis://redis:6379/0?db=4", "redis://redis:6379/5"),
        ("unix:///run/redis.sock", "unix:///run/redis.sock?db=1"),
        ("unix:///run/redis.sock?db=2", "unix:///run/redis.sock?db=3"),
    ],
)
def test_the_counters_go_to_the_next_database_of_the_same_redis(redis_url: str, counters_url: str) -> None:
    assert redis_next_database(redis_url) == counters_url


@pytest.mark.parametrize("redis_url", ["redis://redis:6379/15", "redis:6379", "http://redis:6379/0"])
def test_a_redis_url_with_no_next_database_asks_for_the_counters_own(redis_url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL="):
        redis_next_database(redis_url)


def test_counters_on_several_servers_are_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several servers in one URL (a primary and its replicas) would count nowhere in particular."""
    monkeypatch.setenv("HIVE_CACHE_URL", "redis://a:6379/1,redis://b:6379/1")
    with pytest.raises(ImproperlyConfigured, match="names several servers"):
        _cache_url()


def test_a_cache_that_is_not_redis_still_limits_each_process_and_says_so(
    db: None, settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert _three_guesses_at_two_an_hour(monkeypatch) == [400, 400, 429]
    assert "is not Redis" in caplog.text
