"""Tool calls as the model sends them: assembled from streamed pieces, with arguments read leniently.

Providers disagree on `arguments`: a JSON string (OpenAI), an object (some GLM and Ollama builds), an empty
string for "no arguments", or a string that is itself JSON-encoded twice. What cannot be read becomes an
`arguments_error` the model is told about, rather than a crash or a silent `{}`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from browser_pool.types import JsonObject

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(slots=True)
class ToolCall:
    id: str
    name: str
    arguments: JsonObject = field(default_factory=dict)
    # Set when the arguments could not be read; the call is then answered with this error, not run.
    arguments_error: str = ""
    raw_arguments: str = ""

    def as_message_part(self) -> dict[str, Any]:
        """The call as it goes back to the model in the assistant message (arguments always a JSON string)."""
        arguments = self.raw_arguments if self.arguments_error else json.dumps(self.arguments, ensure_ascii=False)
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": arguments}}


def loads_lenient(text: str) -> Any:
    """json.loads, then again without a surrounding code fence and without trailing commas."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as first:
        fenced = _FENCE.match(text)
        candidate = fenced.group(1) if fenced else text
        candidate = _TRAILING_COMMA.sub(r"\1", candidate)
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            raise first from None


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str]:
    """(arguments, error). `error` is empty when the arguments could be read as a JSON object."""
    if raw is None:
        return {}, ""
    if isinstance(raw, dict):
        return raw, ""
    if not isinstance(raw, str):
        return {}, f"the arguments must be a JSON object, got {type(raw).__name__}"
    if not raw.strip():
        return {}, ""
    try:
        value = loads_lenient(raw)
        if isinstance(value, str) and value.strip().startswith("{"):
            value = loads_lenient(value)  # encoded twice
    except json.JSONDecodeError as exc:
        return {}, f"the arguments are not valid JSON ({exc.msg} at character {exc.pos})"
    if value is None:
        return {}, ""
    if not isinstance(value, dict):
        return {}, f"the arguments must be a JSON object, got {type(value).__name__}"
    return value, ""


@dataclass(slots=True)
class _Partial:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    object_arguments: dict[str, Any] | None = None


class ToolCallAccumulator:
    """Collects streamed `tool_calls` deltas into whole calls.

    Deltas are matched by `index`; a provider that omits it is matched by `id`, else the piece continues the
    call in progress. A delta whose arguments are an object (not a string) replaces what was collected.
    """

    def __init__(self) -> None:
        self._calls: dict[int, _Partial] = {}
        self._last: int | None = None

    def add(self, index: int | None, call_id: str | None, name: str | None, arguments: Any) -> None:
        slot = self._slot(index, call_id)
        partial = self._calls.setdefault(slot, _Partial())
        self._last = slot
        if call_id and not partial.id:
            partial.id = call_id
        if name:
            # Most providers send the name once; a few repeat it in every piece.
            partial.name = name if not partial.name or partial.name == name else partial.name + name
        if isinstance(arguments, dict):
            partial.object_arguments = arguments
        elif isinstance(arguments, str):
            partial.arguments.append(arguments)

    def _slot(self, index: int | None, call_id: str | None) -> int:
        if index is not None:
            return index
        if call_id:
            for slot, partial in self._calls.items():
                if partial.id == call_id:
                    return slot
            return len(self._calls)
        return self._last if self._last is not None else 0

    def __bool__(self) -> bool:
        return bool(self._calls)

    def calls(self, id_prefix: str = "call") -> list[ToolCall]:
        """The whole calls in order; a call without an id (some providers) gets `<id_prefix>_<n>`."""
        out: list[ToolCall] = []
        for number, slot in enumerate(sorted(self._calls), start=1):
            partial = self._calls[slot]
            raw: Any = partial.object_arguments if partial.object_arguments is not None else "".join(partial.arguments)
            arguments, error = parse_arguments(raw)
            out.append(
                ToolCall(
                    id=partial.id or f"{id_prefix}_{number}",
                    name=partial.name.strip(),
                    arguments=arguments,
                    arguments_error=error,
                    raw_arguments=raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False),
                )
            )
        return [call for call in out if call.name]
