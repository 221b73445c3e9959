from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from webapp.llm.models import ModelProfile

pytestmark = pytest.mark.django_db

PROFILE = {
    "name": "Work",
    "provider": "openai",
    "base_url": "https://api.example.com/v1",
    "model": "gpt-x",
    "api_key": "sk-secret-123",
}


def test_the_api_key_goes_in_encrypted_and_never_comes_out(api: APIClient) -> None:
    created = api.post("/api/model-profiles/", PROFILE, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["has_api_key"] is True
    assert "sk-secret-123" not in created.content.decode()
    assert "api_key" not in body
    stored = ModelProfile.objects.get(pk=body["id"])
    assert "sk-secret-123" not in stored.api_key_encrypted
    for path in ("/api/model-profiles/", f"/api/model-profiles/{body['id']}/"):
        assert "sk-secret-123" not in api.get(path).content.decode()


def test_capabilities_default_to_the_providers_preset(api: APIClient) -> None:
    deepseek = api.post("/api/model-profiles/", {**PROFILE, "provider": "deepseek"}, format="json").json()
    assert deepseek["supports_tools"] is True
    assert deepseek["supports_vision"] is False
    ollama = api.post("/api/model-profiles/", {**PROFILE, "name": "Local", "provider": "ollama"}, format="json").json()
    assert ollama["supports_tools"] is False
    custom = api.post(
        "/api/model-profiles/", {**PROFILE, "name": "Mine", "provider": "custom", "supports_tools": True}, format="json"
    ).json()
    assert custom["supports_tools"] is True


def test_updating_without_a_key_keeps_it_and_an_empty_key_removes_it(api: APIClient) -> None:
    pid = api.post("/api/model-profiles/", PROFILE, format="json").json()["id"]
    assert api.patch(f"/api/model-profiles/{pid}/", {"model": "gpt-y"}, format="json").json()["has_api_key"] is True
    assert api.patch(f"/api/model-profiles/{pid}/", {"api_key": ""}, format="json").json()["has_api_key"] is False


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"base_url": "not a url"}, "base_url"),
        ({"provider": "skynet"}, "provider"),
        ({"name": ""}, "name"),
        ({"model": ""}, "model"),
    ],
)
def test_bad_profiles_are_refused(api: APIClient, change: dict[str, str], field: str) -> None:
    response = api.post("/api/model-profiles/", {**PROFILE, **change}, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not ModelProfile.objects.exists()


def test_duplicate_names_and_self_fallback_are_refused(api: APIClient) -> None:
    pid = api.post("/api/model-profiles/", PROFILE, format="json").json()["id"]
    assert "already have" in api.post("/api/model-profiles/", PROFILE, format="json").json()["detail"]
    assert "own fallback" in api.patch(f"/api/model-profiles/{pid}/", {"fallback": pid}, format="json").json()["detail"]


def test_another_users_profiles_are_invisible_and_unusable(api: APIClient) -> None:
    stranger = APIClient()
    stranger.force_login(UserFactory())
    theirs = stranger.post("/api/model-profiles/", PROFILE, format="json").json()["id"]
    assert api.get("/api/model-profiles/").json() == []
    assert api.get(f"/api/model-profiles/{theirs}/").status_code == 404
    assert api.post(f"/api/model-profiles/{theirs}/test/").status_code == 404
    mine = api.post("/api/model-profiles/", PROFILE, format="json").json()["id"]
    assert api.patch(f"/api/model-profiles/{mine}/", {"fallback": theirs}, format="json").status_code == 404
    conversation = api.post("/api/conversations/", {}, format="json").json()["id"]
    assert api.patch(f"/api/conversations/{conversation}/", {"model_profile": theirs}, format="json").status_code == 404


def test_a_conversation_uses_a_chosen_profile_and_its_settings(api: APIClient) -> None:
    pid = api.post("/api/model-profiles/", PROFILE, format="json").json()["id"]
    cid = api.post("/api/conversations/", {"model_profile": pid, "show_reasoning": True}, format="json").json()["id"]
    detail = api.get(f"/api/conversations/{cid}/").json()
    assert detail["model_profile"] == pid
    assert detail["show_reasoning"] is True
    assert detail["confirm_mode"] == "auto"
    assert (
        api.patch(f"/api/conversations/{cid}/", {"confirm_mode": "confirm"}, format="json").json()["confirm_mode"]
        == "confirm"
    )
    assert api.patch(f"/api/conversations/{cid}/", {"confirm_mode": "yolo"}, format="json").status_code == 400
    api.delete(f"/api/model-profiles/{pid}/")
    assert api.get(f"/api/conversations/{cid}/").json()["model_profile"] is None


def test_providers_list_names_the_presets(api: APIClient, settings: object) -> None:
    settings.HIVE_LLM_BASE_URL = ""  # type: ignore[attr-defined]
    body = api.get("/api/model-providers/").json()
    assert {p["id"] for p in body["providers"]} >= {"openai", "deepseek", "qwen", "glm", "moonshot", "ollama", "custom"}
    assert body["server_default"] is None
