"""SKILL files: the ``hive-skill/1`` JSON format, read (validated with the same rules as the admin) and written.

A file holds one SKILL document or a list of them::

    {
      "format": "hive-skill/1",
      "name": "demo-shop",                     # required; unique in the library
      "version": "1.0.0",                      # required; semantic version
      "description": "...",                    # optional, default ""
      "match_patterns": ["*://*/demo/shop/*"], # required; Chrome match patterns
      "priority": 0,                           # optional integer, default 0 (higher first)
      "enabled": true,                         # optional, default true
      "health_check": "return true;",          # optional async function body, default "" (no check)
      "tools": [                               # required list (may be empty)
        {
          "name": "searchProducts",            # required; WebMCP tool name, unique in the SKILL
          "title": "Search products",          # optional, default ""
          "description": "...",                # required, not empty
          "input_schema": {"type": "object"},  # optional, default {"type": "object", "properties": {}}
          "annotations": {"readOnlyHint": true},   # optional, default {}
          "handler": "return ...;"             # required; body of async (input, {signal}) => { ... }
        }
      ]
    }

Exports always write every key in this order, so importing a complete document and exporting it again gives
the same document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

from webapp.core.types import JsonObject
from webapp.skills.models import Skill, SkillTool
from webapp.skills.types import SkillDocument, tool_spec

FORMAT = "hive-skill/1"

_SKILL_FIELDS: dict[str, tuple[type, Any]] = {  # key: (JSON type, default; ... = required)
    "name": (str, ...),
    "version": (str, ...),
    "description": (str, ""),
    "match_patterns": (list, ...),
    "priority": (int, 0),
    "enabled": (bool, True),
    "health_check": (str, ""),
}
_TOOL_FIELDS: dict[str, tuple[type, Any]] = {
    "name": (str, ...),
    "title": (str, ""),
    "description": (str, ...),
    "input_schema": (dict, None),  # None: the model's default, an empty object schema
    "annotations": (dict, None),
    "handler": (str, ...),
}
_TYPE_NAMES = {str: "a string", list: "a list", int: "an integer", bool: "true or false", dict: "an object"}


class SkillFileError(Exception):
    """The file cannot be imported; ``errors`` lists every problem found, each saying where."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(slots=True)
class SkillSpec:
    """A validated SKILL from a file, not yet saved."""

    skill: Skill
    tools: list[SkillTool] = field(default_factory=list)


def load_json(raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except UnicodeDecodeError as exc:
        raise SkillFileError(["The file is not UTF-8 text."]) from exc
    except json.JSONDecodeError as exc:
        raise SkillFileError([f"Not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."]) from exc


def parse_document(data: Any) -> list[SkillSpec]:
    """Validate a parsed file (one SKILL document or a list of them); raise SkillFileError with every problem."""
    documents = data if isinstance(data, list) else [data]
    if not documents:
        raise SkillFileError(["The file holds an empty list: no SKILLs to import."])
    errors: list[str] = []
    specs: list[SkillSpec] = []
    for index, document in enumerate(documents, start=1):
        where = f"SKILL {index}" if len(documents) > 1 else "SKILL"
        if isinstance(document, dict) and isinstance(document.get("name"), str):
            where = f"{where} {document['name']!r}"
        spec = _parse_skill(document, where, errors)
        if spec is not None:
            specs.append(spec)
    names = [spec.skill.name for spec in specs]
    errors.extend(
        f"SKILL {name!r} appears more than once in the file." for name in sorted(set(names)) if names.count(name) > 1
    )
    if errors:
        raise SkillFileError(errors)
    return specs


def _parse_skill(document: Any, where: str, errors: list[str]) -> SkillSpec | None:
    if not isinstance(document, dict):
        errors.append(f"{where}: expected a JSON object, got {_json_type(document)}.")
        return None
    if document.get("format") != FORMAT:
        errors.append(f'{where}: "format" must be "{FORMAT}", got {document.get("format")!r}.')
        return None
    before = len(errors)
    values = _take(document, _SKILL_FIELDS, {"format", "tools"}, where, errors)
    tools = document.get("tools")
    if not isinstance(tools, list):
        errors.append(f'{where}: "tools" is required and must be a list of tool objects.')
        tools = []
    if len(errors) > before:
        return None
    skill = Skill(**values)
    _full_clean(skill, where, errors, validate_unique=False)
    spec = SkillSpec(skill=skill)
    seen: set[str] = set()
    for index, tool_document in enumerate(tools, start=1):
        tool_where = f"{where}, tool {index}"
        if isinstance(tool_document, dict) and isinstance(tool_document.get("name"), str):
            tool_where = f"{tool_where} {tool_document['name']!r}"
        if not isinstance(tool_document, dict):
            errors.append(f"{tool_where}: expected a JSON object, got {_json_type(tool_document)}.")
            continue
        tool_before = len(errors)
        tool_values = _take(tool_document, _TOOL_FIELDS, set(), tool_where, errors)
        if len(errors) > tool_before:
            continue
        tool = SkillTool(**{key: value for key, value in tool_values.items() if value is not None})
        _full_clean(tool, tool_where, errors, exclude=["skill"], validate_unique=False, validate_constraints=False)
        if tool.name in seen:
            errors.append(f"{tool_where}: another tool in this SKILL already has the name {tool.name!r}.")
        seen.add(tool.name)
        spec.tools.append(tool)
    return spec


def _take(
    document: JsonObject, fields: dict[str, tuple[type, Any]], extra: set[str], where: str, errors: list[str]
) -> JsonObject:
    """The values of `fields` in a document as a user wrote it (wrong types are reported in `errors`)."""
    unknown = sorted(set(document) - set(fields) - extra)
    if unknown:
        errors.append(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(fields)}.")
    values: JsonObject = {}
    for key, (kind, default) in fields.items():
        if key not in document:
            if default is ...:
                errors.append(f"{where}: {key!r} is required.")
            values[key] = default
            continue
        value = document[key]
        # bool is an int in Python; JSON true is not a priority.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            errors.append(f"{where}: {key!r} must be {_TYPE_NAMES[kind]}, got {_json_type(value)}.")
        values[key] = value
    return values


def _full_clean(instance: Skill | SkillTool, where: str, errors: list[str], **options: Any) -> None:
    try:
        instance.full_clean(**options)
    except ValidationError as exc:
        for key, messages in exc.message_dict.items():
            errors.extend(f"{where}: {key}: {message}" for message in messages)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, int | float) else type(value).__name__
    )


def skill_to_document(skill: Skill) -> SkillDocument:
    """A SKILL as a ``hive-skill/1`` document (every key, fixed order)."""
    return {
        "format": FORMAT,
        "name": skill.name,
        "version": skill.version,
        "description": skill.description,
        "match_patterns": list(skill.match_patterns),
        "priority": skill.priority,
        "enabled": skill.enabled,
        "health_check": skill.health_check,
        "tools": [tool_spec(tool) for tool in skill.tools.all()],
    }


def dump_documents(skills: list[Skill]) -> str:
    """The file for ``skills``: one SKILL's document, or a list of documents for several."""
    documents = [skill_to_document(skill) for skill in skills]
    return json.dumps(documents[0] if len(documents) == 1 else documents, indent=2, ensure_ascii=False) + "\n"
