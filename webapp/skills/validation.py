"""The rules a SKILL and its tools must follow, in one place: model fields, admin forms and file imports all
use these validators (they raise Django's ValidationError with a message an admin can act on)."""

from __future__ import annotations

import functools
import re
from typing import Any

import tree_sitter
import tree_sitter_javascript
from django.core.exceptions import ValidationError
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from webapp.skills.patterns import parse_pattern

# WebMCP tool names. Chromium 156's registerTool accepts exactly these: it refuses spaces, '/', ':',
# non-ASCII letters, the empty name and names longer than 128 characters ("Invalid tool name").
TOOL_NAME_PATTERN = r"^[A-Za-z0-9_.-]{1,128}$"
TOOL_NAME_RE = re.compile(TOOL_NAME_PATTERN)

# SKILL names also name export files, so they stay plain.
SKILL_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$"
SKILL_NAME_RE = re.compile(SKILL_NAME_PATTERN)

# Semantic Versioning 2.0.0 (the regular expression semver.org recommends).
SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)

# WebMCP tool annotations (all optional booleans).
ANNOTATION_KEYS = ("readOnlyHint", "untrustedContentHint", "consequentialHint")


def validate_skill_name(value: str) -> None:
    if not SKILL_NAME_RE.match(value or ""):
        raise ValidationError(
            f"{value!r} is not a valid SKILL name: use letters, digits, '.', '_' or '-' (up to 100, "
            "starting with a letter or digit), e.g. 'demo-shop'."
        )


def validate_semver(value: str) -> None:
    if not SEMVER_RE.match(value or ""):
        raise ValidationError(
            f"{value!r} is not a semantic version: write MAJOR.MINOR.PATCH, e.g. 1.0.0 or 2.1.0-beta.1."
        )


def semver_key(version: str) -> tuple[Any, ...]:
    """Sort key with semantic-version precedence (pre-releases before the release; build metadata ignored)."""
    match = SEMVER_RE.match(version)
    if match is None:
        raise ValueError(f"{version!r} is not a semantic version")
    major, minor, patch, pre, _build = match.groups()
    core = (int(major), int(minor), int(patch))
    if pre is None:
        return (*core, 1, ())
    ids = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in pre.split("."))
    return (*core, 0, ids)


def validate_match_patterns(value: Any) -> None:
    if not isinstance(value, list) or not value:
        raise ValidationError(
            'Give the URL match patterns as a non-empty JSON list of strings, e.g. ["https://*.example.com/*"].'
        )
    errors = []
    for index, pattern in enumerate(value):
        try:
            parse_pattern(pattern)
        except ValueError as exc:
            errors.append(ValidationError(f"Pattern {index + 1}: {exc}"))
    if errors:
        raise ValidationError(errors)


def validate_tool_name(value: str) -> None:
    if not TOOL_NAME_RE.match(value or ""):
        raise ValidationError(
            f"{value!r} is not a valid WebMCP tool name: use 1 to 128 ASCII letters, digits, '_', '.' or '-'."
        )


def validate_not_blank(value: str) -> None:
    if not (value or "").strip():
        raise ValidationError("This must not be empty.")


def validate_input_schema(value: Any) -> None:
    if not isinstance(value, dict):
        raise ValidationError('The input schema must be a JSON object, e.g. {"type": "object", "properties": {}}.')
    try:
        Draft202012Validator.check_schema(value)
    except SchemaError as exc:
        where = "/".join(str(part) for part in exc.path)
        raise ValidationError(
            f"Not a valid JSON Schema (draft 2020-12): {exc.message}" + (f" (at {where})" if where else "")
        ) from exc
    if value.get("type") != "object":
        raise ValidationError('The input schema must describe an object: it needs "type": "object".')


def validate_annotations(value: Any) -> None:
    if not isinstance(value, dict):
        raise ValidationError('Annotations must be a JSON object, e.g. {"readOnlyHint": true}.')
    errors = []
    for key, flag in value.items():
        if key not in ANNOTATION_KEYS:
            errors.append(ValidationError(f"Unknown annotation {key!r}: use {', '.join(ANNOTATION_KEYS)}."))
        elif not isinstance(flag, bool):
            errors.append(ValidationError(f"Annotation {key!r} must be true or false, not {flag!r}."))
    if errors:
        raise ValidationError(errors)


@functools.cache
def _javascript() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def _first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    if node.type == "ERROR" or node.is_missing:
        return node
    if not node.has_error:
        return None
    return next((found for child in node.children if (found := _first_error(child)) is not None), None)


def validate_function_body(value: str) -> None:
    """The body of an async function, as a handler or health check is run in the page: it must parse, or the SKILL
    would only fail later, in a user's page. The message names the line (of the body) and shows it."""
    if not value.strip():
        return
    source = b"(async function (input, options) {\n" + value.encode("utf-8") + b"\n})"
    error = _first_error(_javascript().parse(source).root_node)
    if error is None:
        return
    row, column = error.start_point
    line = max(1, row)  # row 0 is the wrapper's first line
    text = value.splitlines()[line - 1] if value.splitlines() else ""
    raise ValidationError(
        f"This JavaScript does not parse: line {line}, column {column + 1}: {text.strip()[:80]!r}.", code="syntax"
    )
