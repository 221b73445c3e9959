"""The operator sets each rate limit in the environment (HIVE_RATE_<SCOPE>): a server started with one applies it,
and a malformed value stops the start with the variable's name instead of failing requests later."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.support.processes import ROOT, service_env, start_daphne, suite_database_url
from webapp.settings.api import throttle_rates

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
