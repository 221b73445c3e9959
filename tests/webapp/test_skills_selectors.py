"""skills_for_url: what the worker injects into a page."""

from __future__ import annotations

import pytest

from tests.factories import ConversationFactory
from tests.support.skills import DOCUMENT, document, empty_library
from webapp.skills.models import Skill
from webapp.skills.selectors import skills_for_url
from webapp.skills.services import conversation_skill_set, skill_import

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def library() -> None:
    empty_library()
    skill_import(
        document=[
            DOCUMENT,  # priority 5: https://*.weather.example/*, */forecast/*
            document(name="everywhere", priority=1, match_patterns=["<all_urls>"], tools=[]),
            document(name="urgent", priority=9, match_patterns=["*://*/forecast/*"], tools=[]),
            document(name="switched-off", priority=20, match_patterns=["<all_urls>"], enabled=False),
        ]
    )


def _names(url: str, conversation_id: int | None = None) -> list[str]:
    return [s["name"] for s in skills_for_url(url=url, conversation_id=conversation_id)]


def test_matching_enabled_skills_come_highest_priority_first() -> None:
    assert _names("https://www.weather.example/today") == ["weather", "everywhere"]
    assert _names("http://localhost:8000/forecast/berlin") == ["urgent", "weather", "everywhere"]
    assert _names("https://elsewhere.example/") == ["everywhere"]
    assert _names("chrome://settings/") == []


def test_the_worker_gets_plain_json_ready_dicts() -> None:
    [weather, _] = skills_for_url(url="https://weather.example/", conversation_id=None)
    skill = Skill.objects.get(name="weather")
    assert weather == {
        "id": skill.pk,
        "name": "weather",
        "version": "1.2.0",
        "description": DOCUMENT["description"],
        "priority": 5,
        "health_check": DOCUMENT["health_check"],
        "tools": [
            {key: tool[key] for key in ("name", "title", "description", "input_schema", "annotations", "handler")}
            for tool in DOCUMENT["tools"]
        ],
    }


def test_a_conversation_can_switch_a_skill_off_for_itself_only() -> None:
    mine, theirs = ConversationFactory(), ConversationFactory()
    weather = Skill.objects.get(name="weather")
    conversation_skill_set(conversation=mine, skill=weather, enabled=False)
    url = "https://weather.example/"
    assert _names(url, mine.pk) == ["everywhere"]
    assert _names(url, theirs.pk) == ["weather", "everywhere"]
    assert _names(url, None) == ["weather", "everywhere"]
    conversation_skill_set(conversation=mine, skill=weather, enabled=True)
    assert _names(url, mine.pk) == ["weather", "everywhere"]


def test_a_skill_with_a_broken_pattern_is_skipped_not_fatal() -> None:
    Skill.objects.filter(name="urgent").update(match_patterns=["nonsense"])  # bypasses validation on purpose
    assert _names("http://localhost/forecast/x") == ["weather", "everywhere"]
