"""The action registry as the agent sees it: every action, a strict schema a model can follow, honest flags."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from browser_pool.actions import ACTIONS, parse_arguments, validate_arguments
from browser_pool.actions.params import DragDrop, PressKey
from browser_pool.types import ActionResult

SEED_ACTIONS = {
    "click", "type", "scroll", "navigate", "screenshot", "wait", "hover", "select", "press_key", "go_back",
    "go_forward", "refresh", "drag_drop", "upload_file", "switch_tab", "open_tab", "close_tab", "list_tabs",
    "execute_js", "get_elements", "get_element_details",
}  # fmt: skip


def objects_in(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = [schema] if schema.get("type") == "object" else []
    for prop in schema.get("properties", {}).values():
        found += objects_in(prop)
    if isinstance(schema.get("items"), dict):
        found += objects_in(schema["items"])
    return found


def test_every_seed_action_is_registered_under_its_name() -> None:
    assert set(ACTIONS) == SEED_ACTIONS
    assert all(spec.name == name for name, spec in ACTIONS.items())


def test_schemas_are_strict_and_described() -> None:
    for spec in ACTIONS.values():
        Draft202012Validator.check_schema(spec.schema)
        assert spec.schema["type"] == "object"
        for obj in objects_in(spec.schema):
            assert obj["additionalProperties"] is False, spec.name
        for name, prop in spec.schema["properties"].items():
            # A model reads the description (or the enum) to know what to send.
            assert prop.get("description") or prop.get("enum"), f"{spec.name}.{name}"
        assert set(spec.schema.get("required", [])) <= set(spec.schema["properties"])
        assert spec.description.endswith("."), spec.name
        assert "anyOf" not in str(spec.schema)
        assert "oneOf" not in str(spec.schema)


def test_read_only_marks_exactly_the_actions_that_cannot_change_a_site() -> None:
    read_only = {name for name, spec in ACTIONS.items() if spec.read_only}

    assert read_only == {
        "scroll", "screenshot", "wait", "hover", "switch_tab", "list_tabs", "get_elements", "get_element_details",
    }  # fmt: skip


def test_tool_format_for_openai_compatible_models() -> None:
    tool = ACTIONS["click"].as_tool()

    assert tool["type"] == "function"
    assert tool["function"]["name"] == "click"
    assert tool["function"]["parameters"] is ACTIONS["click"].schema


def test_validation_accepts_good_arguments_and_explains_bad_ones() -> None:
    assert validate_arguments("type", {"index": 3, "text": "hi", "clear": False}) is None
    assert validate_arguments("drag_drop", {"from": {"index": 1}, "to": {"x": 10, "y": 20}}) is None

    not_an_object = validate_arguments("click", ["index", 3])
    assert not_an_object is not None
    assert not not_an_object.ok
    assert not_an_object.error == "invalid arguments for click: ['index', 3] is not of type 'object'"
    too_many = validate_arguments("get_element_details", {"indices": list(range(21))})
    assert too_many is not None
    assert too_many.error.startswith("invalid arguments for get_element_details: indices:")


def test_each_schema_is_generated_from_the_typed_arguments_the_handler_gets() -> None:
    for spec in ACTIONS.values():
        written = json.dumps(spec.schema)
        # What some providers refuse, and what a model need not read.
        for word in ('"title"', '"$ref"', '"$defs"', '"null"', '"allOf"'):
            assert word not in written, (spec.name, word)
    drag = parse_arguments("drag_drop", {"from": {"index": 1}, "to": {"x": 10, "y": 20}})
    assert isinstance(drag, DragDrop)
    assert (drag.source.index, drag.to.x, drag.to.y) == (1, 10.0, 20.0)
    key = parse_arguments("press_key", {"key": "Enter"})
    assert isinstance(key, PressKey)
    assert (key.key, key.modifiers, key.index) == ("Enter", (), None)  # left out: the typed default
    refused = parse_arguments("press_key", {"key": "a", "modifiers": ["hyper"]})
    assert isinstance(refused, ActionResult)
    assert refused.error.startswith("invalid arguments for press_key: modifiers.0: 'hyper' is not one of")
