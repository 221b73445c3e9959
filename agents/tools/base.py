"""Tools the agent can call: a name, a description, JSON-schema parameters, a read-only flag and an async handler.

A registry validates arguments against the schema before anything runs, and turns every way a tool can fail
(bad arguments, an exception, a failed result) into an observation with the error and a suggestion, so the
turn goes on and the model can choose another way.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator

from agents.llm.fenced import describe_parameters
from agents.llm.messages import FunctionTool
from browser_pool.actions.params import SHARED_DESCRIPTIONS
from browser_pool.types import ActionResult, JsonObject
from browser_pool.webmcp.schema import untrusted_validator

if TYPE_CHECKING:
    from agents.events import EventSink
    from browser_pool.types import TabControl

log = logging.getLogger(__name__)

DEFAULT_SUGGESTION = "try once more with different arguments, use another tool, or tell the user what blocked you"

# Where a tool comes from: the safety policy treats the browser's own actions, the agent's bookkeeping tools and
# tools contributed by pages or SKILLs differently (the user's "confirm" mode asks before the latter).
SOURCE_BROWSER = "browser"
SOURCE_AGENT = "agent"


class ToolError(Exception):
    """A tool's expected failure: the message is for the model, the suggestion says what to try instead."""

    def __init__(self, error: str, suggestion: str = "") -> None:
        super().__init__(error)
        self.error = error
        self.suggestion = suggestion


@dataclass(slots=True)
class ToolOutput:
    """What a tool hands back. `text` is what the model reads."""

    ok: bool = True
    text: str = ""
    error: str = ""
    suggestion: str = ""
    screenshot: bytes | None = None
    # The tool may have changed the page: the loop appends a fresh page summary and takes a screenshot.
    page_changed: bool = False
    # Structured extras for the step log (not sent to the model).
    data: dict[str, Any] = field(default_factory=dict)
    # A browser action's structured result (what it did, what changed, the element it aimed at).
    action: ActionResult | None = None

    @property
    def navigated(self) -> bool:
        return self.action is not None and self.action.navigated

    def for_model(self) -> str:
        if self.ok:
            return self.text or "done"
        suggestion = self.suggestion or DEFAULT_SUGGESTION
        lines = [f"Error: {self.error}", f"Suggestion: {suggestion}"]
        if self.text:
            lines.append(self.text)
        return "\n".join(lines)


def _unmasked(text: str) -> str:
    return text


@dataclass(slots=True)
class ToolContext:
    """What a handler may use. Later tool sources (page content, memory, WebMCP, SKILLs) get the same."""

    tabs: TabControl
    sink: EventSink
    uploads: Mapping[str, Path]
    action_timeout_ms: int
    # Per-turn values tools share (the plan lives here); keyed by the owning module's name.
    state: dict[str, Any] = field(default_factory=dict)
    # The step's secrets mask, for text a tool hands on before the step reports (a page's text sent to a model).
    mask: Callable[[str], str] = _unmasked


ToolHandler = Callable[[dict[str, Any], ToolContext], Awaitable[ToolOutput]]


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    parameters: JsonObject
    handler: ToolHandler
    read_only: bool = False
    # "browser", "agent", or where a contributed tool came from ("webmcp", "skill" ...).
    source: str = SOURCE_AGENT
    # Overrides the turn's per-tool timeout (e.g. a slow extraction); None uses AgentConfig.tool_timeout_s.
    timeout_s: float | None = None
    # Offered only once this other tool has run without error (update_plan after publish_plan); it runs if called.
    offered_after: str | None = None
    # The description says what the parameters mean and their defaults: the model gets the parameters without their
    # own descriptions and defaults (one short description per tool; the full schema stays for MCP clients).
    terse: bool = False

    def as_function(self) -> FunctionTool:
        """The OpenAI-style function tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


# Keywords that only validate (the registry checks every call against the whole schema): not sent to the model.
_VALIDATION_ONLY = frozenset({"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
                              "additionalProperties"})  # fmt: skip


def lean_schema(schema: Any, said: frozenset[str] = frozenset(), *, terse: bool = False) -> Any:
    """A tool's parameters as the model needs them: what to send, without the limits the registry checks anyway, nor
    the descriptions in `said` (the system prompt defines them once); `terse` also leaves out every description and
    default inside (the tool's own description gives them)."""
    if isinstance(schema, dict):
        return {
            key: lean_schema(value, said, terse=terse)
            for key, value in schema.items()
            if key not in _VALIDATION_ONLY
            and not (key == "description" and (terse or value in said))
            and not (terse and key == "default")
        }
    if isinstance(schema, list):
        return [lean_schema(value, said, terse=terse) for value in schema]
    return schema


def _said(tool: Tool) -> frozenset[str]:
    """Descriptions the system prompt already gives: the browser tools' shared ones (agents.prompts.RULE_LOOK)."""
    return SHARED_DESCRIPTIONS if tool.source == SOURCE_BROWSER else frozenset()


@functools.lru_cache(maxsize=256)
def _fixed_validator(schema_text: str) -> Validator:
    """The validator of one of Hive's own tool schemas, the schema checked once per process: checking one costs about
    3 ms, and every agent turn, replay and action by hand builds its registry anew."""
    schema = json.loads(schema_text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


class ToolRegistry:
    """The tools of one turn, by name, with their argument validators. `deferred` tools (rarely needed) run when
    called but are not offered until `reveal()` (the more_tools tool): every request carries what is offered."""

    def __init__(self, tools: Iterable[Tool], deferred: Iterable[str] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._validators: dict[str, Validator] = {}
        self._dynamic: set[str] = set()
        self._succeeded: set[str] = set()
        for tool in tools:
            self.add(tool)
        self._deferred = {name for name in deferred if name in self._tools}

    def add(self, tool: Tool) -> None:
        """One more fixed tool (one made for this registry, such as more_tools)."""
        if tool.name in self._tools:
            raise ValueError(f"two tools are named {tool.name!r}")
        validator = _fixed_validator(json.dumps(tool.parameters, sort_keys=True))
        self._tools[tool.name] = tool
        self._validators[tool.name] = validator

    @property
    def deferred(self) -> list[str]:
        return [name for name in self._tools if name in self._deferred]

    def reveal(self, names: Iterable[str] | None = None) -> list[Tool]:
        """Offer the deferred tools (or those of `names` among them) from now on; returns the ones newly offered."""
        wanted = self._deferred if names is None else self._deferred & set(names)
        shown = [self._tools[name] for name in self.deferred if name in wanted]
        self._deferred -= wanted
        return shown

    def offered(self) -> list[Tool]:
        return [
            tool
            for name, tool in self._tools.items()
            if name not in self._deferred and (tool.offered_after is None or tool.offered_after in self._succeeded)
        ]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def replace_dynamic(self, tools: Iterable[Tool]) -> None:
        """Swap the tools that come and go with the page (WebMCP and SKILL tools); the others stay. A page tool
        named like a fixed tool is left out: the fixed one keeps its name."""
        for name in [n for n in self._dynamic if n in self._tools]:
            del self._tools[name]
            del self._validators[name]
        self._dynamic = set()
        for tool in tools:
            if tool.name in self._tools:
                continue
            try:
                validator = untrusted_validator(tool.parameters)  # a page's or SKILL's patterns run on RE2
            except Exception:  # a page's broken schema must not break the turn: that tool is just not offered
                continue
            self._tools[tool.name] = tool
            self._validators[tool.name] = validator
            self._dynamic.add(tool.name)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def functions(self) -> list[FunctionTool]:
        """The offered tools as OpenAI function tools, their schemas lean."""
        return [
            {"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": lean_schema(t.parameters, _said(t), terse=t.terse)}}
            for t in self.offered()
        ]  # fmt: skip

    def check(self, name: str, arguments: Any) -> ToolOutput | None:
        """None when the call may run; otherwise the failed output explaining what is wrong."""
        tool = self._tools.get(name)
        if tool is None:
            return ToolOutput(
                ok=False, error=f"there is no tool named {name!r}", suggestion="use one of: " + ", ".join(self._tools)
            )
        error = best_match(self._validators[name].iter_errors(arguments))
        if error is None:
            return None
        where = ".".join(str(part) for part in error.absolute_path)
        return ToolOutput(
            ok=False,
            error=f"invalid arguments for {name}: " + (f"{where}: " if where else "") + error.message,
            suggestion=f"call {name} again with arguments that fit its parameters: "
            + describe_parameters(tool.parameters),
        )

    async def run(self, name: str, arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        """Validate, then run. Never raises for a tool's own failure (cancellation still propagates)."""
        invalid = self.check(name, arguments)
        if invalid is not None:
            return invalid
        return await self.invoke(name, arguments, ctx)

    async def invoke(self, name: str, arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        """Run a call already checked (`check`), turning the tool's failures into outputs."""
        try:
            output = await self._tools[name].handler(arguments, ctx)
        except ToolError as exc:
            return ToolOutput(ok=False, error=exc.error, suggestion=exc.suggestion or DEFAULT_SUGGESTION)
        except Exception as exc:  # a tool's bug must not end the user's turn; the model hears what happened
            log.exception("tool %s failed", name)
            return ToolOutput(
                ok=False,
                error=f"{name} failed: {exc.__class__.__name__}: {exc}",
                suggestion=DEFAULT_SUGGESTION,
            )
        if output.ok:
            self._succeeded.add(name)
        elif not output.suggestion:
            output.suggestion = DEFAULT_SUGGESTION
        return output
