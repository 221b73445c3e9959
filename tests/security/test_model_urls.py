"""Requests the server makes for a user — their model profile's base URL, "test connection", every model call —
reach public addresses and the hosts the operator lists, nothing else; checked on save and again at connection
time against a real listener that counts what reaches it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agents.llm import LLMClient, LLMError
from agents.llm.config import ModelConfig
from browser_pool.net import EgressPolicy
from tests.support.listeners import CountingListener, counting_listener
from webapp.core.crypto import encrypt
from webapp.llm.models import ModelProfile

pytestmark = pytest.mark.django_db


@pytest.fixture
def internal() -> Iterator[CountingListener]:
    with counting_listener("127.0.0.1") as listener:
        yield listener


@pytest.fixture
def strict(settings: object) -> None:
    settings.HIVE_LLM_ALLOWED_PRIVATE_HOSTS = []  # type: ignore[attr-defined]
    settings.HIVE_LLM_BASE_URL = ""  # type: ignore[attr-defined]


@pytest.mark.usefixtures("strict")
@pytest.mark.parametrize(
    ("base_url", "why"),
    [
        ("http://169.254.169.254/latest/", "link-local"),
        ("http://127.0.0.1:6379/", "loopback"),
        ("http://2130706433:11434/v1", ""),  # refused as "not a valid URL" before the address is looked at
        ("http://localhost:11434/v1", "loopback"),
        ("http://[::ffff:10.0.0.1]/v1", "private-network"),
        ("http://100.64.1.1/v1", "CGNAT"),
        ("ftp://models.example/v1", "only http and https"),
        ("file:///etc/passwd", ""),
    ],
)
def test_an_internal_or_odd_base_url_is_refused_on_save(api: APIClient, base_url: str, why: str) -> None:
    response = api.post("/api/model-profiles/", {"name": "x", "base_url": base_url, "model": "m"}, format="json")
    assert response.status_code == 400, response.content
    message = " ".join(response.json()["base_url"])
    assert message
    assert why in message
    assert not ModelProfile.objects.exists()


@pytest.mark.usefixtures("strict")
def test_test_connection_to_an_internal_address_never_connects(
    api: APIClient, user: User, internal: CountingListener
) -> None:
    # A row stored before the rule existed (or written past the API): the connection itself is still refused.
    profile = ModelProfile.objects.create(
        owner=user, name="old", base_url=f"{internal.url}/v1", model="m", api_key_encrypted=encrypt("k")
    )
    checked = api.post(f"/api/model-profiles/{profile.pk}/test/")
    assert checked.status_code == 200
    assert checked.json()["ok"] is False
    assert "Blocked by Hive's network firewall" in checked.json()["detail"]
    assert internal.connections == 0


def test_the_operator_can_allow_a_local_model_server(
    api: APIClient, settings: object, internal: CountingListener
) -> None:
    settings.HIVE_LLM_ALLOWED_PRIVATE_HOSTS = [f"127.0.0.1:{internal.port}"]  # type: ignore[attr-defined]
    made = api.post(
        "/api/model-profiles/", {"name": "ollama", "base_url": f"{internal.url}/v1", "model": "m"}, format="json"
    )
    assert made.status_code == 201, made.content
    checked = api.post(f"/api/model-profiles/{made.json()['id']}/test/").json()
    assert internal.connections >= 1, "an allowed host is reached"
    assert checked["ok"] is False
    assert "not as an OpenAI-compatible API" in checked["detail"]


@pytest.mark.asyncio
async def test_every_model_call_is_checked_when_it_connects(internal: CountingListener) -> None:
    config = ModelConfig(base_url=f"http://localhost:{internal.port}/v1", model="m", egress=EgressPolicy())
    client = LLMClient(config, backoff_base_s=0.01)
    try:
        with pytest.raises(LLMError) as refused:
            await client.stream_chat([{"role": "user", "content": "hi"}])
    finally:
        await client.close()
    assert "Blocked by Hive's network firewall" in str(refused.value)
    assert "(after" not in str(refused.value), "a refused address is not retried"
    assert internal.connections == 0
