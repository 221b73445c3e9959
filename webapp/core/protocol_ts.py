"""Writes the dashboard's types of the websocket events (frontend/src/api/types/events.ts) from their Python
definitions in `webapp.core.events`: pydantic makes their JSON schema, json-schema-to-typescript (the dashboard's
dev dependency) the TypeScript. `make protocol` runs it; a test fails when the committed file differs.

Shapes the REST API shares with events are typed once, by the dashboard's REST types: the generated file imports
those (DASHBOARD_TYPES) rather than declaring them again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from webapp.conversations.types import ConversationFilePayload, PageTools, PresenceViewer, SessionTab, TabContext
from webapp.core.events import ControlState, Event, SocketEvent, UserEvent
from webapp.runs.types import PlanStepPayload

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "frontend" / "src" / "api" / "types" / "events.ts"
JSON2TS = ROOT / "frontend" / "node_modules" / ".bin" / "json2ts"
COMMAND = "make protocol"

# The unions the dashboard reads, by the name it knows them by.
UNIONS: dict[str, Any] = {
    "ConversationEvent": Event,  # what a conversation's group carries to every socket on it
    "SocketEvent": SocketEvent,  # what one socket sends its own client besides
    "UserEvent": UserEvent,  # what /ws/me/ carries
}

# A TypedDict the REST API shares with events → the dashboard's type for it.
DASHBOARD_TYPES: dict[type, str] = {
    ControlState: "ControlState",
    PresenceViewer: "PresenceViewer",
    SessionTab: "Tab",
    TabContext: "TabContext",
    PageTools: "PageTools",
    PlanStepPayload: "PlanStep",
    ConversationFilePayload: "ConversationFile",
}

# Where the dashboard declares each type the events name (here and through `_dashboard_type` in webapp.core.events).
DASHBOARD_MODULES: dict[str, str] = {
    "Conversation": "./conversations",
    "Message": "./conversations",
    "ConversationFile": "./conversations",
    "Run": "./runs",
    "Step": "./runs",
    "Confirmation": "./runs",
    "PlanStep": "./runs",
    "Role": "./sharing",
    "ControlState": "./sharing",
    "PresenceViewer": "./sharing",
    "Tab": "./tabs",
    "TabContext": "./tabs",
    "PageTools": "./tools",
}


class _DashboardSchema(GenerateJsonSchema):
    """Names the dashboard's type for a shared shape; an event that extends one is that type and its own keys."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False  # a titled key would become a type alias of its own in the TypeScript

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        cls = schema.get("cls")
        if cls in DASHBOARD_TYPES:
            return {"tsType": DASHBOARD_TYPES[cls]}
        generated = super().typed_dict_schema(schema)
        base = next((b for b in getattr(cls, "__orig_bases__", ()) if b in DASHBOARD_TYPES), None)
        if base is None:
            return generated
        own = set(cls.__annotations__) - set(base.__annotations__)
        rest = {
            "type": "object",
            "properties": {k: v for k, v in generated["properties"].items() if k in own},
            "required": [k for k in generated.get("required", []) if k in own],
        }
        return {"title": generated.get("title"), "allOf": [{"tsType": DASHBOARD_TYPES[base]}, rest]}


def schema() -> dict[str, Any]:
    keyed, definitions = TypeAdapter.json_schemas(
        [(name, "serialization", TypeAdapter(union)) for name, union in UNIONS.items()],
        schema_generator=_DashboardSchema,
        ref_template="#/definitions/{model}",
    )
    defs: dict[str, Any] = dict(definitions.get("$defs", {}))
    for (name, _mode), union in keyed.items():
        defs[name] = {"title": name, **union}
    # A shared shape is named where it is used, not aliased under its Python name.
    named = {f"#/definitions/{key}": value for key, value in defs.items() if set(value) == {"tsType"}}
    defs = {key: _inline(value, named) for key, value in defs.items() if f"#/definitions/{key}" not in named}
    # json-schema-to-typescript writes what the root reaches: every socket's events, by socket.
    defs["ServerEvent"] = {
        "title": "ServerEvent",
        "description": "What a socket on a conversation receives.",
        "anyOf": [{"$ref": "#/definitions/ConversationEvent"}, {"$ref": "#/definitions/SocketEvent"}],
    }
    return {
        "title": "WebsocketEvent",
        "description": "What any of the dashboard's sockets receives: on a conversation, or its user's own (/ws/me/).",
        "anyOf": [{"$ref": "#/definitions/ServerEvent"}, {"$ref": "#/definitions/UserEvent"}],
        "definitions": defs,
    }


def _inline(value: Any, named: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if value.get("$ref") in named:
            return named[value["$ref"]]
        return {key: _inline(item, named) for key, item in value.items()}
    if isinstance(value, list):
        return [_inline(item, named) for item in value]
    return value


def _dashboard_names(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {value["tsType"]} if "tsType" in value else set()
        return found.union(*(_dashboard_names(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_dashboard_names(item) for item in value))
    return set()


def _banner(names: set[str]) -> str:
    by_module: dict[str, list[str]] = {}
    for name in sorted(names):
        by_module.setdefault(DASHBOARD_MODULES[name], []).append(name)
    imports = [f'import type {{ {", ".join(names)} }} from "{module}";' for module, names in sorted(by_module.items())]
    lines = [
        f"// Generated from webapp/core/events.py by `{COMMAND}`: do not edit; change the Python and run it again.",
        "// The websocket events, server → dashboard.",
        "",
        *imports,
    ]
    return "\n".join(lines)


def typescript() -> str:
    """The file's text: json-schema-to-typescript's output, with the dashboard's types it names imported."""
    if not JSON2TS.exists():
        raise RuntimeError(f"{JSON2TS} is missing: install the dashboard's dependencies (`make frontend`)")
    events = schema()
    options = ["--no-additionalProperties", "--unknownAny", "--style.printWidth=120"]
    result = subprocess.run(
        [str(JSON2TS), *options, "--bannerComment", ""],
        input=json.dumps(events),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT / "frontend",
    )
    return f"{_banner(_dashboard_names(events))}\n\n{result.stdout.lstrip()}"


def write(target: Path = OUTPUT) -> None:
    target.write_text(typescript())


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)
