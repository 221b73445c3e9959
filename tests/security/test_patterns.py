"""Schemas from pages and SKILLs run their regular expressions on RE2: a pattern built to backtrack forever answers
at once, and one RE2 cannot run is a clear error, not a stall."""

from __future__ import annotations

from browser_pool.webmcp.calls import validate_arguments
from browser_pool.webmcp.types import ToolRecord

EVIL = "^(a+)+$"  # exponential on "aaaa…!" with a backtracking engine


def _tool(schema: dict[str, object]) -> ToolRecord:
    return ToolRecord(name="lookup", description="x", input_schema=schema)


def test_a_catastrophic_pattern_answers_at_once() -> None:
    tool = _tool({"type": "object", "properties": {"q": {"type": "string", "pattern": EVIL}}})
    # With a backtracking engine this call would not return for ages (pytest's timeout would fail the test).
    error = validate_arguments(tool, {"q": "a" * 5000 + "!"})
    assert error is not None
    assert "does not match" in error
    assert validate_arguments(tool, {"q": "aaaa"}) is None


def test_pattern_properties_and_additional_properties_use_it_too() -> None:
    tool = _tool({"type": "object", "patternProperties": {EVIL: {"type": "integer"}}, "additionalProperties": False})
    assert validate_arguments(tool, {"aaa": 1}) is None
    refused = validate_arguments(tool, {"a" * 3000 + "!": 1})
    assert refused is not None
    assert "not allowed" in refused


def test_a_pattern_re2_cannot_run_is_a_clear_error() -> None:
    tool = _tool({"type": "object", "properties": {"q": {"type": "string", "pattern": r"(a)\1"}}})
    error = validate_arguments(tool, {"q": "aa"})
    assert error is not None
    assert "RE2" in error
