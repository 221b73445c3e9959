"""The tools an MCP client sees: the browser actions, two reads, `run_task`, and the open page's own tools.

Browser actions keep the names, descriptions and JSON schemas the agent itself uses (`browser_pool.actions`);
`upload_file` takes the file's bytes as well as the id of a file already uploaded. The page's WebMCP tools and
matching SKILL tools of the conversation's active tab are listed with a `page_` prefix while that page is open.
"""

from __future__ import annotations

import mcp_types as types

from browser_pool.actions import ACTIONS
from webapp.conversations.types import PageTools
from webapp.core.types import JsonObject

PAGE_PREFIX = "page_"
RUN_TASK = "run_task"
LIST_WORKFLOWS = "list_workflows"
RUN_WORKFLOW = "run_workflow"
LIST_PROFILES = "list_profiles"

# A browser profile to start from, for the tools that start work (the Hive-Profile header does it for every call).
PROFILE_ARGUMENTS: dict[str, JsonObject] = {
    "profile": {
        "type": "string",
        "minLength": 1,
        "description": "Start this conversation's browser from this browser profile (its name or id, from "
        "list_profiles): signed in where the profile is.",
    },
    "profile_mode": {
        "type": "string",
        "enum": ["read-write", "read-only"],
        "description": "read-write (default) saves what changes back into the profile; read-only does not.",
    },
}

_READS: dict[str, tuple[str, JsonObject]] = {  # description, JSON schema
    "observe": (
        "What the page shows now: address, title, scroll position, the first visible text, the focused element, "
        "open dialogs, and the interactive elements in view with the [index] the actions take.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    "get_content": (
        "The page's main text (articles, documentation, results), without navigation and other chrome.",
        {
            "type": "object",
            "properties": {
                "limit_chars": {
                    "type": "integer",
                    "minimum": 100,
                    "maximum": 100_000,
                    "default": 20_000,
                    "description": "Cut the text at this many characters.",
                }
            },
            "additionalProperties": False,
        },
    ),
}
READS = frozenset(_READS)

_UPLOAD = dict(ACTIONS["upload_file"].schema)
_UPLOAD = {
    **_UPLOAD,
    "properties": {
        **_UPLOAD["properties"],
        "name": {"type": "string", "minLength": 1, "maxLength": 200, "description": "The file's name."},
        "data_base64": {"type": "string", "description": "The file's bytes, base64-encoded (instead of file_id)."},
        "url": {"type": "string", "description": "An http(s) address to fetch the file from (instead of file_id)."},
    },
    "required": [],
}

_RUN_TASK_SCHEMA = {
    "type": "object",
    "properties": {
        "task": {
            "type": "string",
            "minLength": 1,
            "description": "What to do, in words, as you would ask Hive's agent in the dashboard.",
        },
        **PROFILE_ARGUMENTS,
    },
    "required": ["task"],
    "additionalProperties": False,
}


def _annotations(*, read_only: bool, title: str | None = None) -> types.ToolAnnotations:
    return types.ToolAnnotations(title=title, read_only_hint=read_only, destructive_hint=not read_only,
                                 open_world_hint=True)  # fmt: skip


def fixed_tools() -> list[types.Tool]:
    tools = [
        types.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=_UPLOAD if spec.name == "upload_file" else spec.schema,
            annotations=_annotations(read_only=spec.read_only),
        )
        for spec in ACTIONS.values()
    ]
    tools += [
        types.Tool(name=name, description=text, input_schema=schema, annotations=_annotations(read_only=True))
        for name, (text, schema) in _READS.items()
    ]
    tools.append(
        types.Tool(
            name=RUN_TASK,
            description=(
                "Hand a whole task to Hive's own agent, with your model settings; it works in this conversation's "
                "browser and answers when done. Step progress arrives as progress notifications; cancelling the "
                "call stops the agent."
            ),
            input_schema=_RUN_TASK_SCHEMA,
            annotations=_annotations(read_only=False),
        )
    )
    tools.append(
        types.Tool(
            name=LIST_WORKFLOWS,
            description="Your saved workflows: id, name, and the parameters each takes (with their defaults).",
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            annotations=_annotations(read_only=True),
        )
    )
    tools.append(
        types.Tool(
            name=RUN_WORKFLOW,
            description=(
                "Replay a saved workflow in this conversation's browser, without a model: fast, and the same way "
                "each time. Parameters not given keep their defaults."
            ),
            input_schema={
                "type": "object",
                "properties": {
                    "workflow": {"type": "integer", "description": "The workflow's id, from list_workflows."},
                    "parameters": {"type": "object", "additionalProperties": {"type": "string"}},
                    **PROFILE_ARGUMENTS,
                },
                "required": ["workflow"],
                "additionalProperties": False,
            },
            annotations=_annotations(read_only=False),
        )
    )
    tools.append(
        types.Tool(
            name=LIST_PROFILES,
            description=(
                "Your browser profiles (and those shared with you to start from): id, name, owner and the origins "
                "each holds sign-ins for. Name one as `profile` of run_task or run_workflow, or in the Hive-Profile "
                "header, to start this conversation's browser from it."
            ),
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            annotations=_annotations(read_only=True),
        )
    )
    return tools


FIXED_NAMES = frozenset(tool.name for tool in fixed_tools())


def page_tools(listing: PageTools) -> list[types.Tool]:
    """The active tab's tools, as the worker last reported them (`BrowserSession.tools`)."""
    tools = []
    for tool in listing.get("tools") or []:
        if tool.get("shadowed"):
            continue
        hints = tool.get("annotations") or {}
        read_only = bool(hints.get("readOnlyHint"))
        source = f"SKILL {tool['skill']}" if tool.get("skill") else "the page"
        tools.append(
            types.Tool(
                name=PAGE_PREFIX + str(tool["name"]),
                title=tool.get("title") or None,
                description=f"{tool.get('description') or ''}\n(A tool of {source} open in the browser now.)".strip(),
                input_schema=tool.get("input_schema") or {"type": "object", "properties": {}},
                annotations=_annotations(read_only=read_only, title=tool.get("title") or None),
            )
        )
    return tools
