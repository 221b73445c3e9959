"""SKILL files: the hive-skill/1 format, the import rules, the commands, and the shipped demo-shop SKILL."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.support.skills import DOCUMENT, document, empty_library
from webapp.conversations.models import Conversation
from webapp.skills.files import SkillFileError, dump_documents, load_json, parse_document
from webapp.skills.models import ConversationSkillSetting, Skill, SkillTool
from webapp.skills.services import conversation_skill_set, skill_import
from webapp.skills.validation import semver_key

SHIPPED = Path(__file__).resolve().parents[2] / "webapp" / "skills" / "shipped" / "demo-shop.json"

pytestmark = pytest.mark.django_db


def _export(*names: str) -> Any:
    return json.loads(dump_documents([Skill.objects.get(name=name) for name in names]))


def test_import_then_export_gives_the_same_document() -> None:
    outcomes = skill_import(document=DOCUMENT)
    assert [(o.name, o.action) for o in outcomes] == [("weather", "created")]
    assert _export("weather") == DOCUMENT
    assert [t.name for t in Skill.objects.get(name="weather").tools.all()] == ["readForecast", "setCity"]


def test_missing_optional_keys_take_their_defaults() -> None:
    minimal = {
        "format": "hive-skill/1",
        "name": "tiny",
        "version": "0.1.0",
        "match_patterns": ["<all_urls>"],
        "tools": [{"name": "ping", "description": "Answer pong.", "handler": "return 'pong';"}],
    }
    skill_import(document=minimal)
    exported = _export("tiny")
    assert exported["priority"] == 0
    assert exported["enabled"] is True
    assert exported["health_check"] == ""
    assert exported["tools"][0]["input_schema"] == {"type": "object", "properties": {}}
    assert exported["tools"][0]["annotations"] == {}


def test_several_skills_export_as_a_list_and_import_back() -> None:
    other = document(name="news", version="2.0.0-beta.1", tools=[])
    skill_import(document=[DOCUMENT, other])
    exported = _export("weather", "news")
    assert exported == [DOCUMENT, other]
    Skill.objects.filter(name__in=["weather", "news"]).delete()
    assert [o.action for o in skill_import(document=exported)] == ["created", "created"]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (document(format="hive-skill/2"), '"format" must be "hive-skill/1"'),
        (document(version="1.0"), "not a semantic version"),
        (document(name="has space"), "not a valid SKILL name"),
        (document(match_patterns=["https://exa*mple.com/*"]), "first part"),
        (document(match_patterns=[]), "at least one URL match pattern"),
        (document(priority="high"), "'priority' must be an integer"),
        (document(enabled="yes"), "'enabled' must be true or false"),
        (document(colour="blue"), "unknown key(s) 'colour'"),
        (document(tools={"name": "x"}), '"tools" is required and must be a list'),
        ({k: v for k, v in DOCUMENT.items() if k != "version"}, "'version' is required"),
        ([], "empty list"),
        ("just text", "expected a JSON object"),
    ],
)
def test_bad_skill_documents_are_refused_with_the_reason(bad: object, message: str) -> None:
    empty_library()
    with pytest.raises(SkillFileError) as caught:
        skill_import(document=bad)
    assert any(message in error for error in caught.value.errors), caught.value.errors
    assert not Skill.objects.exists()


def _with_tool(**changes: object) -> dict[str, object]:
    doc = document()
    doc["tools"][0].update(changes)  # type: ignore[index]
    return doc


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (_with_tool(name="read forecast"), "not a valid WebMCP tool name"),
        (_with_tool(name="x" * 129), "not a valid WebMCP tool name"),
        (_with_tool(description="  "), "description: This must not be empty"),
        (_with_tool(handler=""), "handler: This field cannot be blank"),
        (
            _with_tool(input_schema={"type": "object", "properties": {"days": {"type": "nope"}}}),
            "Not a valid JSON Schema",
        ),
        (_with_tool(input_schema={"type": "string"}), '"type": "object"'),
        (_with_tool(input_schema=["type", "object"]), "'input_schema' must be an object"),
        (_with_tool(annotations={"readOnly": True}), "Unknown annotation 'readOnly'"),
        (_with_tool(annotations={"readOnlyHint": "yes"}), "must be true or false"),
        (_with_tool(name="setCity"), "already has the name 'setCity'"),
        (_with_tool(extra=1), "unknown key(s) 'extra'"),
    ],
)
def test_bad_tools_are_refused_with_where_and_why(bad: object, message: str) -> None:
    with pytest.raises(SkillFileError) as caught:
        skill_import(document=bad)
    assert any(message in error and ", tool " in error for error in caught.value.errors), caught.value.errors
    assert not Skill.objects.filter(name="weather").exists()


def test_one_bad_skill_in_a_file_means_nothing_is_imported() -> None:
    with pytest.raises(SkillFileError, match="not a semantic version"):
        skill_import(document=[document(name="fine"), document(name="broken", version="v1")])
    assert not Skill.objects.filter(name__in=["fine", "broken"]).exists()


def test_the_same_name_twice_in_a_file_is_refused() -> None:
    with pytest.raises(SkillFileError, match="appears more than once"):
        skill_import(document=[DOCUMENT, DOCUMENT])


def test_installed_skill_is_kept_unless_replace_is_asked_for(conversation: Conversation) -> None:
    skill_import(document=DOCUMENT)
    original = Skill.objects.get(name="weather")
    conversation_skill_set(conversation=conversation, skill=original, enabled=False)  # type: ignore[arg-type]
    newer = document(version="1.3.0", description="New and improved.", tools=[DOCUMENT["tools"][1]])

    [skipped] = skill_import(document=newer)
    assert (skipped.action, skipped.previous_version) == ("skipped", "1.2.0")
    assert "import with replace" in skipped.describe()
    assert Skill.objects.get(name="weather").version == "1.2.0"

    [replaced] = skill_import(document=newer, replace=True)
    assert (replaced.action, replaced.previous_version) == ("replaced", "1.2.0")
    skill = Skill.objects.get(name="weather")
    assert (skill.pk, skill.version, skill.description) == (original.pk, "1.3.0", "New and improved.")
    assert [t.name for t in skill.tools.all()] == ["setCity"]
    assert SkillTool.objects.filter(skill__name="weather").count() == 1
    assert ConversationSkillSetting.objects.get(skill=skill).enabled is False  # the switch survived the upgrade
    assert [o.action for o in skill_import(document=newer, replace=True)] == ["replaced"]  # same version: allowed


def test_replace_never_downgrades() -> None:
    skill_import(document=DOCUMENT)
    with pytest.raises(SkillFileError, match="never downgrades"):
        skill_import(document=document(version="1.2.0-rc.1"), replace=True)
    assert Skill.objects.get(name="weather").version == "1.2.0"


def test_versions_compare_by_semver_precedence() -> None:
    ordered = [
        "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
        "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0+build.5",
    ]  # fmt: skip
    keys = [semver_key(version) for version in ordered]
    assert all(lower < higher for lower, higher in zip(keys, keys[1:], strict=False))
    assert semver_key("1.0.0+a") == semver_key("1.0.0+b")  # build metadata does not count


def test_load_json_explains_bad_files() -> None:
    with pytest.raises(SkillFileError, match=r"Not valid JSON: .*line 1"):
        load_json(b"{nope")
    with pytest.raises(SkillFileError, match="not UTF-8"):
        load_json(b"\xff\xfe\x00")


def test_commands_round_trip_a_file(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_text(json.dumps([DOCUMENT, document(name="news", tools=[])]), encoding="utf-8")
    call_command("skill_import", str(source))
    assert set(Skill.objects.values_list("name", flat=True)) >= {"weather", "news"}

    out = tmp_path / "weather.json"
    call_command("skill_export", "weather", "-o", str(out))
    assert json.loads(out.read_text(encoding="utf-8")) == DOCUMENT

    both = tmp_path / "both.json"
    call_command("skill_export", "weather", "news", "--output", str(both))
    assert [d["name"] for d in json.loads(both.read_text(encoding="utf-8"))] == ["weather", "news"]

    Skill.objects.filter(name="weather").delete()
    call_command("skill_import", str(out))
    assert _export("weather") == DOCUMENT


def test_commands_report_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CommandError, match="No SKILL named 'ghost'"):
        call_command("skill_export", "ghost")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("skill_import", str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document(version="one")), encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing was imported:\n  - SKILL 'weather': version:"):
        call_command("skill_import", str(bad))


def test_skill_export_writes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    skill_import(document=DOCUMENT)
    call_command("skill_export", "weather")
    assert json.loads(capsys.readouterr().out) == DOCUMENT


@pytest.mark.django_db
def test_shipped_demo_shop_skill_is_installed_by_migrate() -> None:
    # Transactional tests elsewhere empty the tables, so run the data migration's own step on an empty library
    # (the same function `migrate` runs) rather than relying on what migrate left behind.
    from django.apps import apps

    shipped_migration = importlib.import_module("webapp.skills.migrations.0002_shipped_demo_shop")
    Skill.objects.all().delete()
    shipped_migration.load(apps, None)
    shipped_migration.load(apps, None)  # a second run changes nothing
    skill = Skill.objects.get(name="demo-shop")
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert _export("demo-shop") == shipped
    assert skill.enabled
    assert [t.name for t in skill.tools.all()] == ["searchProducts", "addToCart", "viewCart"]
    tools = {t.name: t for t in skill.tools.all()}
    assert tools["searchProducts"].annotations["readOnlyHint"] is True
    assert tools["viewCart"].annotations["readOnlyHint"] is True
    assert tools["addToCart"].annotations == {"consequentialHint": True}


def test_shipped_file_passes_validation_and_reloads_with_replace(tmp_path: Path) -> None:
    shipped = load_json(SHIPPED.read_bytes())
    [spec] = parse_document(shipped)
    assert spec.skill.match_patterns == ["*://*/demo/shop/*"]
    empty_library()
    call_command("skill_import", str(SHIPPED))
    call_command("skill_import", str(SHIPPED), "--replace")
    assert _export("demo-shop") == shipped
