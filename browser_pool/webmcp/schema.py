"""Validating arguments against schemas that pages and SKILLs wrote: their regular expressions run on RE2, which
matches in linear time, so a hostile `pattern` cannot stall the worker with catastrophic backtracking."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

import re2
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for

UNSUPPORTED = "the schema's pattern {!r} cannot be used: Hive runs patterns with RE2 (no backreferences, no lookaround)"


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str) -> Any:
    return re2.compile(pattern)


def _search(pattern: str, text: str) -> bool:
    return _compiled(pattern).search(text) is not None


def _pattern(validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        found = _search(pattern, instance)
    except re2.error:
        yield ValidationError(UNSUPPORTED.format(pattern))
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _matching_patterns(schema: Mapping[str, Any], key: str) -> bool:
    try:
        return any(_search(pattern, key) for pattern in schema.get("patternProperties", {}))
    except re2.error:
        return False


def _pattern_properties(
    validator: Validator, patterns: Mapping[str, Any], instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        try:
            keys = [key for key in instance if _search(pattern, key)]
        except re2.error:
            yield ValidationError(UNSUPPORTED.format(pattern))
            continue
        for key in keys:
            yield from validator.descend(instance[key], subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Validator, additional: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    known = schema.get("properties", {})
    extras = sorted(key for key in instance if key not in known and not _matching_patterns(schema, key))
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif additional is False and extras:
        yield ValidationError(f"Additional properties are not allowed ({', '.join(map(repr, extras))} unexpected)")


_RE2_KEYWORDS = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
}


def untrusted_validator(schema: Mapping[str, Any] | bool, **kwargs: Any) -> Validator:
    """A validator for a schema from a page or a SKILL: its draft's rules, with regular expressions on RE2.
    Raises `jsonschema.exceptions.SchemaError` for a schema that is not one."""
    base = validator_for(schema, default=Draft202012Validator)
    base.check_schema(schema)
    cls = _extended(base)
    return cls(schema, **kwargs)


@functools.cache
def _extended(base: type[Validator]) -> type[Validator]:
    return extend(base, validators=_RE2_KEYWORDS)  # type: ignore[no-any-return]
