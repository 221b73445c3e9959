"""Clients identified correctly: the throttles and the sign-in lockout key on the client's address as the operator's
proxies define it. By default `X-Forwarded-For` is ignored, so a client cannot pick a fresh key per request; behind
configured proxies the key is the real client, so one client's wrong passwords do not lock out another."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory
from webapp.core.clients import client_address
from webapp.core.throttles import WriteThrottle

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.7"
ATTACKER = "203.0.113.5"
VICTIM = "198.51.100.7"


@pytest.fixture(autouse=True)
def _fresh_counters() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _login(client: APIClient, password: str, *, forwarded: str = "", peer: str = PROXY) -> int:
    headers: dict[str, Any] = {"REMOTE_ADDR": peer}
    if forwarded:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    response = client.post("/api/auth/login/", {"username": "victim", "password": password}, format="json", **headers)
    return int(response.status_code)


def test_thirty_signups_with_different_forwarded_for_from_one_client_are_limited_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"signup": "20/hour"})
    client = APIClient()
    answers = [
        client.post(
            "/api/auth/signup/",
            {"username": f"bot{n}", "password": "a-long-passphrase"},
            format="json",
            REMOTE_ADDR="192.0.2.10",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(30)
    ]
    assert answers[:20] == [201] * 20
    assert answers[20:] == [429] * 10, "a made-up X-Forwarded-For does not make a new client"
    assert User.objects.filter(username__startswith="bot").count() == 20
    other = APIClient().post(
        "/api/auth/signup/",
        {"username": "human", "password": "a-long-passphrase"},
        format="json",
        REMOTE_ADDR="192.0.2.11",
    )
    assert other.status_code == 201, "another client is counted apart"


def test_by_default_the_lockout_ignores_forwarded_for(settings: object) -> None:
    settings.AXES_FAILURE_LIMIT = 5  # type: ignore[attr-defined]
    UserFactory(username="victim")
    client = APIClient()
    answers = [_login(client, "guess", forwarded=f"203.0.113.{n}", peer=ATTACKER) for n in range(5)]
    assert answers == [400, 400, 400, 400, 429]
    assert _login(client, PASSWORD, forwarded="198.51.100.99", peer=ATTACKER) == 429, "a new header is no escape"


@pytest.mark.parametrize("setting", ["HIVE_TRUSTED_PROXIES", "HIVE_NUM_PROXIES"])
def test_behind_a_configured_proxy_the_lockout_keys_on_the_real_client(settings: object, setting: str) -> None:
    settings.AXES_FAILURE_LIMIT = 5  # type: ignore[attr-defined]
    setattr(settings, setting, [PROXY] if setting == "HIVE_TRUSTED_PROXIES" else 1)
    UserFactory(username="victim")
    client = APIClient()
    # The attacker also writes an address of their own choosing: the proxy appends the one it saw.
    attempts = [_login(client, "guess", forwarded=f"{VICTIM}, {ATTACKER}") for _ in range(5)]
    assert attempts == [400, 400, 400, 400, 429]
    assert _login(client, PASSWORD, forwarded=ATTACKER) == 429, "the attacker is locked out"
    assert _login(client, PASSWORD, forwarded=VICTIM) == 200, "the owner, from their own address, signs in"


def test_the_client_address_by_configuration(settings: object) -> None:
    factory = RequestFactory()

    def address(peer: str, forwarded: str = "") -> str:
        request = factory.get("/", REMOTE_ADDR=peer)
        if forwarded:
            request.META["HTTP_X_FORWARDED_FOR"] = forwarded
        return client_address(request)

    assert address(ATTACKER, "1.2.3.4") == ATTACKER  # no proxies: the header is ignored
    settings.HIVE_TRUSTED_PROXIES = [PROXY]  # type: ignore[attr-defined]
    assert address(PROXY, f"1.2.3.4, {VICTIM}") == VICTIM  # the address the proxy appended
    assert address(PROXY) == PROXY  # nothing forwarded: the proxy itself
    assert address(ATTACKER, VICTIM) == ATTACKER, "a client that reaches Hive past the proxy names nobody else"
    settings.HIVE_TRUSTED_PROXIES = ["203.0.113.0/24", "10.0.0.0/8"]  # type: ignore[attr-defined]  # a CDN, then a balancer
    assert address(PROXY, f"1.2.3.4, {VICTIM}, 203.0.113.9") == VICTIM
    assert address(PROXY, f"{VICTIM}, 192.0.2.1") == PROXY, "a hop that is not the CDN: not trusted"
    settings.HIVE_TRUSTED_PROXIES = []  # type: ignore[attr-defined]
    settings.HIVE_NUM_PROXIES = 2  # type: ignore[attr-defined]
    assert address(PROXY, f"1.2.3.4, {VICTIM}, 203.0.113.9") == VICTIM
    assert address(PROXY, VICTIM) == PROXY, "fewer hops than proxies: the request did not come through them"
