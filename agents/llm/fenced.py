"""Tool calls for models without function calling: tools described in the prompt, calls in a fenced JSON block.

What the parser accepts (the fallback for models without function calling, made forgiving where models are sloppy):
- a fence tagged ```json (any case, also json5/jsonc) or untagged, anywhere in the reply; the first block that
  holds a call wins, the text around it is the model's thought;
- a reply that is nothing but a JSON object or list (models sometimes drop the fence);
- one call object or a list of them; the name under "tool" (our protocol), or "name"/"function"/"action"
  when it names a known tool; arguments under "arguments", "parameters", "params", "args" or "input", as an
  object or a JSON string; the ReAct shape {"thought": ..., "action": {"tool": ..., "parameters": ...}} that
  many prompts teach models;
- trailing commas and a JSON string encoded twice.
A reply without a call (no block, or a block of plain data such as an extracted table) is the final answer.
A block tagged json that cannot be parsed is reported back to the model so it can correct itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from agents.llm.toolcalls import ToolCall, loads_lenient, parse_arguments
from browser_pool.types import JsonObject

_BLOCK = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)
_JSON_TAGS = {"", "json", "json5", "jsonc"}
_NAME_KEYS = ("tool", "name", "function", "action", "tool_name")
_ARGUMENT_KEYS = ("arguments", "parameters", "params", "args", "input")

PROTOCOL = """\
## How to call a tool
This model talks to tools through JSON. To call a tool, reply with one fenced block like this and stop:
```json
{"tool": "<tool name>", "arguments": {"<parameter>": <value>}}
```
You will get the result in the next message. You may write one short sentence before the block saying what \
you are doing.
When the task is done, or you need something from the user, answer in plain text with no JSON block: \
that text is your reply to the user."""
PROTOCOL_SEVERAL = "To call several tools one after another, put a JSON list of such objects in the block."


@dataclass(slots=True)
class FencedReply:
    calls: list[ToolCall] = field(default_factory=list)
    # The reply without the block that held the calls: the model's thought, or its whole answer.
    text: str = ""
    thought: str = ""
    # A block that looked like a call but could not be read; told to the model so it can try again.
    error: str = ""


def _schema_hint(schema: JsonObject) -> str:
    kind = schema.get("type", "value")
    if "enum" in schema:
        return "one of " + "|".join(str(value) for value in schema["enum"])
    if kind == "array":
        return f"array of {_schema_hint(schema.get('items', {}))}"
    if kind == "object" and schema.get("properties"):
        return "object {" + ", ".join(schema["properties"]) + "}"
    return str(kind)


def describe_parameters(schema: JsonObject) -> str:
    """A compact, model-readable list of a tool's parameters."""
    properties: dict[str, Any] = schema.get("properties") or {}
    if not properties:
        return "no parameters"
    required = set(schema.get("required", []))
    parts = []
    for name, prop in properties.items():
        need = "required" if name in required else "optional"
        text = f"{name} ({_schema_hint(prop)}, {need})"
        if prop.get("description"):
            text += f": {prop['description'].rstrip('.')}"
        parts.append(text)
    return "; ".join(parts)


def describe_tools(tools: Iterable[tuple[str, str, dict[str, Any], bool]]) -> str:
    """The tool list for the prompt: (name, description, parameters schema, read_only) each."""
    lines = []
    for name, description, schema, read_only in tools:
        lines.append(f"- {name}{' (read-only)' if read_only else ''}: {description}")
        lines.append(f"  parameters: {describe_parameters(schema)}")
    return "\n".join(lines)


def _name_of(item: dict[str, Any], known: Collection[str]) -> str | None:
    if isinstance(item.get("tool"), str):
        return str(item["tool"])
    for key in _NAME_KEYS[1:]:
        value = item.get(key)
        if isinstance(value, str) and value in known:
            return value
        if isinstance(value, dict) and isinstance(value.get("name"), str):  # OpenAI's {"function": {"name": ...}}
            return str(value["name"])
    return None


def _call_from(item: Any, known: Collection[str], number: int) -> ToolCall | None:
    if not isinstance(item, dict):
        return None
    action = item.get("action")
    if isinstance(action, dict):  # the ReAct shape: {"thought": ..., "action": {"tool": ..., "parameters": ...}}
        return _call_from(action, known, number)
    name = _name_of(item, known)
    if name is None:
        return None
    raw: Any = None
    function = item.get("function")
    if isinstance(function, dict):
        raw = function.get("arguments")
    for key in _ARGUMENT_KEYS:
        if key in item:
            raw = item[key]
            break
    arguments, error = parse_arguments(raw)
    raw_text = raw if isinstance(raw, str) else json.dumps(raw if raw is not None else {}, ensure_ascii=False)
    return ToolCall(
        id=f"fenced_{number}", name=name, arguments=arguments, arguments_error=error, raw_arguments=raw_text
    )


def _calls_in(value: Any, known: Collection[str]) -> tuple[list[ToolCall], str]:
    items = value if isinstance(value, list) else [value]
    calls = [_call_from(item, known, number) for number, item in enumerate(items, start=1)]
    found = [call for call in calls if call is not None]
    thought = next((str(i["thought"]) for i in items if isinstance(i, dict) and isinstance(i.get("thought"), str)), "")
    if found and len(found) != len(items):
        found.append(ToolCall(id=f"fenced_{len(items) + 1}", name="", arguments_error="an item names no tool"))
    return found, thought


def parse_fenced_reply(content: str, known_tools: Collection[str]) -> FencedReply:
    """Find the tool calls in a reply of a model that has no function calling."""
    candidates: list[tuple[str, str, tuple[int, int]]] = [
        (match.group(1).lower(), match.group(2), match.span()) for match in _BLOCK.finditer(content)
    ]
    stripped = content.strip()
    if not candidates and stripped[:1] in "{[" and stripped[-1:] in "}]":
        candidates.append(("", stripped, (0, len(content))))
    error = ""
    for tag, body, (start, end) in candidates:
        if tag not in _JSON_TAGS or body.strip()[:1] not in ("{", "["):
            continue
        try:
            value = loads_lenient(body.strip())
        except json.JSONDecodeError as exc:
            if tag.startswith("json"):
                error = f"the JSON block could not be read ({exc.msg} at line {exc.lineno}, column {exc.colno})"
            continue
        calls, thought = _calls_in(value, known_tools)
        if calls:
            rest = (content[:start] + content[end:]).strip()
            return FencedReply(calls=calls, text=rest, thought=thought or rest)
    return FencedReply(text=content.strip(), error=error)
