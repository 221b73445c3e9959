"""The SKILL library for users: read-only list, and each conversation's own switch."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from tests.support.skills import DOCUMENT, document, empty_library
from webapp.conversations.models import Conversation
from webapp.skills.models import ConversationSkillSetting, Skill
from webapp.skills.services import skill_import

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def library() -> None:
    empty_library()
    skill_import(document=[DOCUMENT, document(name="hidden", enabled=False, tools=[])])


def test_users_see_enabled_skills_with_their_tools_but_not_the_code(api: APIClient) -> None:
    response = api.get("/api/skills/")
    assert response.status_code == 200
    [weather] = response.json()
    assert weather["name"] == "weather"
    assert weather["version"] == "1.2.0"
    assert weather["match_patterns"] == DOCUMENT["match_patterns"]
    assert [t["name"] for t in weather["tools"]] == ["readForecast", "setCity"]
    assert weather["tools"][0]["annotations"] == {"readOnlyHint": True, "untrustedContentHint": True}
    assert weather["tools"][0]["input_schema"]["properties"]["days"] == {"type": "integer", "minimum": 1}
    assert "handler" not in weather["tools"][0]
    assert "health_check" not in weather


def test_signed_out_visitors_get_nothing() -> None:
    assert APIClient().get("/api/skills/").status_code == 403


def test_switch_a_skill_off_and_on_in_a_conversation(api: APIClient, conversation: Conversation) -> None:
    cid = conversation.pk  # type: ignore[attr-defined]
    skill_id = Skill.objects.get(name="weather").pk
    listed = api.get(f"/api/conversations/{cid}/skills/").json()
    assert [(s["name"], s["enabled_here"]) for s in listed] == [("weather", True)]

    off = api.post(f"/api/conversations/{cid}/skills/{skill_id}/", {"enabled": False}, format="json")
    assert off.status_code == 200
    assert (off.json()["id"], off.json()["enabled_here"]) == (skill_id, False)
    assert [s["enabled_here"] for s in api.get(f"/api/conversations/{cid}/skills/").json()] == [False]

    on = api.post(f"/api/conversations/{cid}/skills/{skill_id}/", {"enabled": True}, format="json")
    assert on.json()["enabled_here"] is True
    assert ConversationSkillSetting.objects.filter(conversation_id=cid).count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "enabled"), ({"enabled": "no"}, "enabled"), ({"enabled": 0}, "enabled"), ({"enabled": None}, "enabled")],
)
def test_the_switch_wants_a_real_boolean(api: APIClient, conversation: Conversation, body: dict, field: str) -> None:
    skill_id = Skill.objects.get(name="weather").pk
    response = api.post(f"/api/conversations/{conversation.pk}/skills/{skill_id}/", body, format="json")  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert field in response.json()
    assert not ConversationSkillSetting.objects.exists()


def test_malformed_json_is_a_clear_400(api: APIClient, conversation: Conversation) -> None:
    skill_id = Skill.objects.get(name="weather").pk
    response = api.post(
        f"/api/conversations/{conversation.pk}/skills/{skill_id}/",  # type: ignore[attr-defined]
        "{enabled:",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "Malformed" in response.json()["detail"]


def test_another_users_conversation_does_not_exist_for_you(api: APIClient) -> None:
    theirs = ConversationFactory()
    skill_id = Skill.objects.get(name="weather").pk
    assert api.get(f"/api/conversations/{theirs.pk}/skills/").status_code == 404
    response = api.post(f"/api/conversations/{theirs.pk}/skills/{skill_id}/", {"enabled": False}, format="json")
    assert response.status_code == 404
    assert not ConversationSkillSetting.objects.exists()


def test_unknown_or_disabled_skills_answer_404(api: APIClient, conversation: Conversation) -> None:
    hidden = Skill.objects.get(name="hidden").pk
    for skill_id in (hidden, 999_999):
        url = f"/api/conversations/{conversation.pk}/skills/{skill_id}/"  # type: ignore[attr-defined]
        assert api.post(url, {"enabled": False}, format="json").status_code == 404
