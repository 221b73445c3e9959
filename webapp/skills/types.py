"""A SKILL as data: what the worker injects into a page (skills_for_url → workers.webtools), and the
``hive-skill/1`` document it is exported as (files.py). Both carry its tools the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from webapp.conversations.types import ToolAnnotations
from webapp.core.types import JsonObject

if TYPE_CHECKING:
    from webapp.skills.models import SkillTool


class SkillToolSpec(TypedDict):
    name: str
    title: str
    description: str
    input_schema: JsonObject  # a JSON schema of an object (validation.validate_input_schema)
    annotations: ToolAnnotations
    handler: str  # the body of `async (input, {signal}) => {...}`


def tool_spec(tool: SkillTool) -> SkillToolSpec:
    return {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "input_schema": tool.input_schema,
        "annotations": tool.annotations,
        "handler": tool.handler,
    }


class SkillInjection(TypedDict):
    id: int
    name: str
    version: str
    description: str
    priority: int
    health_check: str  # the body of `async () => {...}`; "" means none
    tools: list[SkillToolSpec]


class SkillDocument(TypedDict):
    """A ``hive-skill/1`` document as exported: every key, in this order (files.py describes the format)."""

    format: str
    name: str
    version: str
    description: str
    match_patterns: list[str]
    priority: int
    enabled: bool
    health_check: str
    tools: list[SkillToolSpec]
