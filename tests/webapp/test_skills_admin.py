"""The SKILL library in Django admin: validation as form errors, actions, export and import."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import UserFactory
from tests.support.skills import DOCUMENT, document, empty_library
from webapp.skills.files import dump_documents
from webapp.skills.models import Skill, SkillTool
from webapp.skills.services import skill_import

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/skills/skill/add/"
LIST_URL = "/admin/skills/skill/"
IMPORT_URL = "/admin/skills/skill/import/"


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _form(tools: list[dict[str, str]] | None = None, **changes: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "weather",
        "version": "1.0.0",
        "description": "Forecasts.",
        "match_patterns": '["https://*.weather.example/*"]',
        "priority": "0",
        "enabled": "on",
        "health_check": "return true;",
    }
    data.update(changes)
    tools = (
        tools
        if tools is not None
        else [
            {
                "name": "readForecast",
                "title": "Read forecast",
                "description": "Read the forecast.",
                "input_schema": '{"type": "object", "properties": {"days": {"type": "integer"}}}',
                "annotations": '{"readOnlyHint": true}',
                "handler": "return 1;",
            }
        ]
    )
    data.update({"tools-TOTAL_FORMS": str(len(tools)), "tools-INITIAL_FORMS": "0", "tools-MIN_NUM_FORMS": "0"})
    data["tools-MAX_NUM_FORMS"] = "1000"
    for index, tool in enumerate(tools):
        data.update({f"tools-{index}-{key}": value for key, value in tool.items()})
    return data


def _tool(**changes: str) -> dict[str, str]:
    tool = {
        "name": "readForecast",
        "title": "",
        "description": "Read the forecast.",
        "input_schema": '{"type": "object"}',
        "annotations": "{}",
        "handler": "return 1;",
    }
    tool.update(changes)
    return tool


def _errors(response: Any) -> list[str]:
    """Every form error on the admin page, as 'field: message'."""
    found = [f"{f}: {m}" for f, ms in response.context["adminform"].form.errors.items() for m in ms]
    for inline in response.context["inline_admin_formsets"]:
        found += [f"tools.{f}: {m}" for errors in inline.formset.errors for f, ms in errors.items() for m in ms]
        found += [f"tools: {m}" for m in inline.formset.non_form_errors()]
    return found


def test_a_valid_skill_is_saved_with_its_tools(admin_client: Client) -> None:
    response = admin_client.post(ADD_URL, _form())
    assert response.status_code == 302, _errors(response)
    skill = Skill.objects.get(name="weather")
    assert skill.match_patterns == ["https://*.weather.example/*"]
    [tool] = skill.tools.all()
    assert tool.input_schema["properties"]["days"] == {"type": "integer"}
    assert tool.annotations == {"readOnlyHint": True}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_form(version="1.0"), "version: '1.0' is not a semantic version"),
        (_form(name="my skill"), "name: 'my skill' is not a valid SKILL name"),
        (_form(match_patterns='["https://exa*mple.com/*"]'), "match_patterns: Pattern 1: Match pattern"),
        (_form(match_patterns='["https://ok.example/*", "ftp:/x"]'), "match_patterns: Pattern 2:"),
        (_form(match_patterns='"https://*/*"'), "match_patterns: Give the URL match patterns as a non-empty JSON list"),
        (_form(match_patterns="[not json"), "match_patterns: Enter a valid JSON."),
        (_form(tools=[_tool(name="read forecast")]), "tools.name: 'read forecast' is not a valid WebMCP tool name"),
        (_form(tools=[_tool(description="")]), "tools.description: This field is required."),
        (_form(tools=[_tool(input_schema='{"type": "object", "properties": {"a": {"type": 5}}}')]), "Not a valid JSON Schema"),
        (_form(tools=[_tool(input_schema='{"type": "array"}')]), 'tools.input_schema: The input schema must describe an object'),
        (_form(tools=[_tool(annotations='{"dangerous": true}')]), "tools.annotations: Unknown annotation 'dangerous'"),
        (_form(tools=[_tool(annotations='{"readOnlyHint": 1}')]), "tools.annotations: Annotation 'readOnlyHint' must be true or false"),
        (_form(tools=[_tool(), _tool()]), "tools: Please correct the duplicate data for name"),
    ],
)  # fmt: skip
def test_invalid_input_shows_form_errors_and_saves_nothing(admin_client: Client, data: dict, expected: str) -> None:
    empty_library()
    response = admin_client.post(ADD_URL, data)
    assert response.status_code == 200
    errors = _errors(response)
    assert any(expected in error for error in errors), errors
    assert not Skill.objects.exists()
    assert not SkillTool.objects.exists()


def test_json_fields_are_edited_as_pretty_json(admin_client: Client) -> None:
    skill_import(document=DOCUMENT)
    skill = Skill.objects.get(name="weather")
    response = admin_client.get(f"/admin/skills/skill/{skill.pk}/change/")
    assert response.status_code == 200
    patterns = response.context["adminform"].form["match_patterns"].value()
    assert patterns == json.dumps(DOCUMENT["match_patterns"], indent=2)
    schema = response.context["inline_admin_formsets"][0].formset.forms[0]["input_schema"].value()
    assert schema.startswith('{\n  "type": "object",\n')


def test_enable_and_disable_actions(admin_client: Client) -> None:
    skill_import(document=[DOCUMENT, document(name="news", tools=[])])
    ids = list(Skill.objects.filter(name__in=["weather", "news"]).values_list("pk", flat=True))
    admin_client.post(LIST_URL, {"action": "disable_selected", "_selected_action": ids})
    assert not Skill.objects.filter(pk__in=ids, enabled=True).exists()
    response = admin_client.post(LIST_URL, {"action": "enable_selected", "_selected_action": ids}, follow=True)
    assert Skill.objects.filter(pk__in=ids, enabled=True).count() == 2
    assert "Enabled 2 SKILL(s)." in [str(m) for m in get_messages(response.wsgi_request)]


def test_export_action_downloads_one_object_or_a_list(admin_client: Client) -> None:
    skill_import(document=[DOCUMENT, document(name="news", tools=[])])
    weather = Skill.objects.get(name="weather").pk
    news = Skill.objects.get(name="news").pk
    one = admin_client.post(LIST_URL, {"action": "export_selected", "_selected_action": [weather]})
    assert one["Content-Disposition"] == 'attachment; filename="weather-1.2.0.json"'
    assert json.loads(one.content) == DOCUMENT
    both = admin_client.post(LIST_URL, {"action": "export_selected", "_selected_action": [weather, news]})
    assert both["Content-Disposition"] == 'attachment; filename="skills.json"'
    assert [d["name"] for d in json.loads(both.content)] == ["news", "weather"]


def _upload(content: str | bytes, name: str = "skills.json") -> SimpleUploadedFile:
    raw = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, raw, content_type="application/json")


def test_exported_file_imports_back_through_the_admin(admin_client: Client) -> None:
    skill_import(document=DOCUMENT)
    weather = Skill.objects.get(name="weather").pk
    exported = admin_client.post(LIST_URL, {"action": "export_selected", "_selected_action": [weather]}).content
    Skill.objects.filter(pk=weather).delete()

    assert admin_client.get(LIST_URL).content.count(b'href="/admin/skills/skill/import/"') == 1
    assert admin_client.get(IMPORT_URL).status_code == 200
    response = admin_client.post(IMPORT_URL, {"file": _upload(exported)}, follow=True)
    assert response.redirect_chain[-1][0] == LIST_URL
    assert "Created weather 1.2.0." in [str(m) for m in get_messages(response.wsgi_request)]
    assert json.loads(dump_documents([Skill.objects.get(name="weather")])) == DOCUMENT


def test_import_shows_every_error_and_changes_nothing(admin_client: Client) -> None:
    empty_library()
    bad = json.dumps([document(version="x"), document(name="other", match_patterns=["nope"])])
    response = admin_client.post(IMPORT_URL, {"file": _upload(bad)})
    assert response.status_code == 200
    errors = response.context["errors"]
    assert any("SKILL 1 'weather': version: 'x' is not a semantic version" in e for e in errors), errors
    assert any("SKILL 2 'other': match_patterns: Pattern 1" in e for e in errors), errors
    assert b"nothing was changed" in response.content
    assert not Skill.objects.exists()

    response = admin_client.post(IMPORT_URL, {"file": _upload("{oops")})
    assert response.context["errors"] == [
        "Not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)."
    ]


def test_import_replaces_only_when_asked(admin_client: Client) -> None:
    skill_import(document=DOCUMENT)
    newer = json.dumps(document(version="2.0.0"))
    response = admin_client.post(IMPORT_URL, {"file": _upload(newer)}, follow=True)
    assert any("Skipped weather 2.0.0" in str(m) for m in get_messages(response.wsgi_request))
    assert Skill.objects.get(name="weather").version == "1.2.0"
    admin_client.post(IMPORT_URL, {"file": _upload(newer), "replace": "on"})
    assert Skill.objects.get(name="weather").version == "2.0.0"
    older = admin_client.post(IMPORT_URL, {"file": _upload(json.dumps(DOCUMENT)), "replace": "on"})
    assert any("never downgrades" in e for e in older.context["errors"])
    assert Skill.objects.get(name="weather").version == "2.0.0"


def test_staff_without_permissions_cannot_import() -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    assert client.get(IMPORT_URL).status_code == 403
