"""Shared helpers for the SKILL tests (no tests here): a complete hive-skill/1 document and an empty library."""

from __future__ import annotations

import copy
from typing import Any

from webapp.skills.models import Skill

DOCUMENT: dict[str, Any] = {
    "format": "hive-skill/1",
    "name": "weather",
    "version": "1.2.0",
    "description": "Read the forecast on a weather site.",
    "match_patterns": ["https://*.weather.example/*", "*://*/forecast/*"],
    "priority": 5,
    "enabled": True,
    "health_check": "return !!document.querySelector('#forecast');",
    "tools": [
        {
            "name": "readForecast",
            "title": "Read forecast",
            "description": "Read the forecast shown on the page.",
            "input_schema": {
                "type": "object",
                "properties": {"days": {"type": "integer", "minimum": 1}},
                "additionalProperties": False,
            },
            "annotations": {"readOnlyHint": True, "untrustedContentHint": True},
            "handler": "return document.querySelector('#forecast').textContent;",
        },
        {
            "name": "setCity",
            "title": "",
            "description": "Switch the page to another city.",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "annotations": {},
            "handler": "document.querySelector('#city').value = input.city; return {ok: true};",
        },
    ],
}


def document(**changes: Any) -> dict[str, Any]:
    """A deep copy of DOCUMENT with top-level keys changed."""
    result = copy.deepcopy(DOCUMENT)
    result.update(changes)
    return result


def empty_library() -> None:
    """The shipped demo-shop SKILL is loaded by a migration; tests that count SKILLs start without it."""
    Skill.objects.all().delete()
