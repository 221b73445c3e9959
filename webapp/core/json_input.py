"""JSON from clients that cannot hurt: no lone surrogates (they cannot be stored or sent back as UTF-8), no NUL
characters (PostgreSQL refuses them in text), no nesting deeper than a sane limit (Python's parser would recurse
into a crash). Each is refused with a message that says where; answers never fail on rows already stored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer


class UnsafeJSONError(ValueError):
    pass


def max_depth() -> int:
    return int(getattr(settings, "HIVE_JSON_MAX_DEPTH", 64))


def check_depth(text: str, limit: int) -> None:
    """Refuse nesting deeper than `limit` before the recursive parser sees it (brackets in strings do not count)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise UnsafeJSONError(f"JSON nested deeper than {limit} levels")
        elif char in "]}":
            depth -= 1


def check_value(value: Any, where: str = "$") -> None:
    """Refuse lone surrogates and NUL characters anywhere in keys or strings, saying where."""
    if isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_text(str(key), f"{where} (a key)")
            check_value(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_value(item, f"{where}[{index}]")


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise UnsafeJSONError(f"{where} contains a NUL character (\\u0000)")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnsafeJSONError(f"{where} contains a lone surrogate (an invalid \\ud800-\\udfff escape)") from None


def loads(text: str | bytes) -> Any:
    """Parse client JSON, refusing what cannot be stored safely (`UnsafeJSONError` or `ValueError`)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_depth(text, max_depth())
    value = json.loads(text)
    check_value(value)
    return value


class StrictJSONParser(JSONParser):
    """DRF's JSON parser with the checks above; a refusal is a 400 with the reason."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            return loads(stream.read())
        except UnsafeJSONError as exc:
            raise ParseError(str(exc)) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


class SafeJSONRenderer(JSONRenderer):
    """Renders as usual; text stored before the checks existed (a lone surrogate) is escaped instead of failing."""

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return json.dumps(data, cls=self.encoder_class, ensure_ascii=True, allow_nan=False).encode("ascii")
