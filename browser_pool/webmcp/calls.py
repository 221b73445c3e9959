"""Calling a tab's WebMCP tools: arguments checked against the tool's schema, a timeout that aborts the tool, the
tool's real error text, and a result cut to a size limit with a visible mark.

Native tools run through CDP `WebMCP.invokeTool` (as the browser's own agent would run them); polyfilled ones through
the bridge. Either way the result is page content: returned as data, never interpreted, fenced by the agent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from jsonschema.exceptions import SchemaError, ValidationError, best_match
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from referencing import Registry
from referencing.exceptions import Unresolvable

from browser_pool.types import JsonObject
from browser_pool.webmcp import bridge
from browser_pool.webmcp.cdp import CdpChannel, OutcomeStatus
from browser_pool.webmcp.discovery import PageToolWatcher, read_tools, watcher_for
from browser_pool.webmcp.schema import untrusted_validator
from browser_pool.webmcp.types import FrameRef, ToolCallResult, ToolRecord

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MAX_RESULT_BYTES = 65_536
# A page stuck in a busy loop cannot run the in-page timeout; the worker gives up this much later.
_HUNG_PAGE_GRACE_S = 2.0
_NAVIGATED = ("Execution context was destroyed", "because of a navigation")
_CALL = (
    "([path, name, input, timeoutMs, maxChars]) => "
    f"{bridge.BRIDGE_EXPRESSION}.call(path, name, input, timeoutMs, maxChars)"
)
# A page-supplied schema must never make the worker fetch anything: references resolve within the schema only.
_NO_REMOTE_REFS: Registry[Any] = Registry()


class HasPage(Protocol):
    """A tab of the pool (`browser_pool.tabs.Tab`) or anything else that holds its page."""

    @property
    def page(self) -> Page: ...


async def call_tool(
    page_or_tab: Page | HasPage,
    name: str,
    arguments: JsonObject | None = None,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
    frame: FrameRef | None = None,
) -> ToolCallResult:
    """Call the WebMCP tool `name` of a page (a Playwright `Page`, or anything with a `.page`, like a pool `Tab`).

    Without `frame`, a tool of the top document wins over a same-named one in a frame. Never raises for what the
    page or the arguments do wrong: the result says what happened, in words a model can act on.
    """
    started = time.perf_counter()
    page = page_or_tab if isinstance(page_or_tab, Page) else page_or_tab.page

    def failed(error: str) -> ToolCallResult:
        return ToolCallResult(ok=False, error=error, duration_ms=(time.perf_counter() - started) * 1000)

    args: Any = {} if arguments is None else arguments
    if not isinstance(args, dict):
        return failed(f"the arguments for {name!r} must be a JSON object, not {type(args).__name__}")
    try:
        input_json = json.dumps(args, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return failed(f"the arguments for {name!r} cannot be sent as JSON: {exc}")

    watcher = watcher_for(page)
    try:
        tool, native, tools = await _find_tool(page, watcher, name, frame)
    except (PlaywrightError, TimeoutError, ValueError) as exc:
        return failed(f"could not read the page's WebMCP tools: {exc}")
    if tool is None:
        known = ", ".join(sorted({t.name for t in tools})) or "none"
        return failed(f"the page has no WebMCP tool named {name!r} (its tools: {known})")

    problem = validate_arguments(tool, args)
    if problem is not None:
        return failed(problem)

    if native:
        outcome = await _call_native(page, watcher, tool, args, timeout_s)
    else:
        outcome = await _call_polyfill(page, tool, input_json, timeout_s, max_result_bytes)
    duration_ms = (time.perf_counter() - started) * 1000
    if outcome.status == "ok":
        text, truncated = limit_result(outcome.text, max_result_bytes, total_bytes=outcome.total_bytes)
        return ToolCallResult(ok=True, result_text=text, truncated=truncated, duration_ms=duration_ms)
    if outcome.status == "timeout":
        error = f"the tool {name!r} did not finish within {timeout_s:g} s; it was cancelled"
    elif outcome.status == "missing":
        error = f"the tool {name!r} went away before it could run (the page removed it or navigated)"
    elif outcome.status == "cancelled":
        error = f"the tool call {name!r} was cancelled"
    else:
        error = outcome.error or f"the tool {name!r} failed without saying why"
    return ToolCallResult(ok=False, error=error, duration_ms=duration_ms)


@dataclass(frozen=True, slots=True)
class _Outcome:
    status: OutcomeStatus
    text: str = ""
    error: str = ""
    # Set when the page cut the result before sending it: the size of the whole result.
    total_bytes: int | None = None


async def _find_tool(
    page: Page, watcher: PageToolWatcher | None, name: str, frame: FrameRef | None
) -> tuple[ToolRecord | None, bool, list[ToolRecord]]:
    if watcher is not None and watcher.native is not None:
        tool = _pick(watcher.tools, name, frame)
        if tool is not None:
            return tool, watcher.native, watcher.tools
    # Not watched, or registered a moment ago and not read yet: read the page now.
    snapshot = await read_tools(page)
    return _pick(snapshot.tools, name, frame), snapshot.native, snapshot.tools


def _pick(tools: list[ToolRecord], name: str, frame: FrameRef | None) -> ToolRecord | None:
    matches = [tool for tool in tools if tool.name == name]
    if frame is not None:
        matches = [tool for tool in matches if tool.frame.path == frame.path]
    matches.sort(key=lambda tool: len(tool.frame.path))
    return matches[0] if matches else None


def validate_arguments(tool: ToolRecord, arguments: JsonObject) -> str | None:
    """None when `arguments` fit the tool's input schema, else a readable account of what does not."""
    schema = tool.input_schema
    if not schema:
        return None
    try:
        validator = untrusted_validator(schema, registry=_NO_REMOTE_REFS)
        errors = list(validator.iter_errors(arguments))
    except (SchemaError, Unresolvable) as exc:
        # The page's schema is broken; the browser would not check it either. Let the tool judge its input.
        log.info("WebMCP tool %s has an unusable input schema (%s); calling it unchecked", tool.name, exc)
        return None
    if not errors:
        return None
    main: ValidationError | None = best_match(errors)
    assert main is not None
    where = "/".join(str(part) for part in main.absolute_path)
    message = f"invalid arguments for {tool.name}: " + (f"at {where}: " if where else "") + str(main.message)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return message + ". Expected: " + describe_parameters(schema)


def describe_parameters(schema: JsonObject) -> str:
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        return json.dumps(schema, ensure_ascii=False)[:500]
    required = set(schema.get("required") or [])
    parts = []
    for key, spec in properties.items():
        spec = spec if isinstance(spec, dict) else {}
        kind = spec.get("type", "any")
        if "enum" in spec:
            kind = "one of " + "|".join(json.dumps(v, ensure_ascii=False) for v in spec["enum"][:10])
        parts.append(f"{key}: {kind}" + (" (required)" if key in required else ""))
    return "{" + ", ".join(parts) + "}"


def result_text(output: Any) -> str:
    """A tool's result as the caller sees it: text as it came, anything else as compact JSON."""
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False, separators=(",", ":"))


def limit_result(text: str, max_bytes: int, *, total_bytes: int | None = None) -> tuple[str, bool]:
    """Cut `text` to `max_bytes` of UTF-8 (never inside a character) and say so visibly at the end. `total_bytes` is
    the size of the whole result when `text` is already a cut of it."""
    encoded = text.encode("utf-8")
    total = max(total_bytes or 0, len(encoded))
    if total <= max_bytes:
        return text, False
    kept = encoded[:max_bytes].decode("utf-8", errors="ignore")
    kept_bytes = len(kept.encode("utf-8"))
    return kept + f"\n[… truncated by Hive: showing the first {kept_bytes} of {total} bytes]", True


async def _call_native(
    page: Page, watcher: PageToolWatcher | None, tool: ToolRecord, args: JsonObject, timeout_s: float
) -> _Outcome:
    channel = watcher.channel if watcher is not None else None
    own = channel is None
    try:
        if channel is None:
            channel = await CdpChannel.open(page)
        try:
            frame_id = await channel.frame_id(tool.frame.path)
        except LookupError:
            return _Outcome("missing")
        outcome = await channel.invoke(frame_id, tool.name, args, timeout_s)
    except PlaywrightError as exc:
        return _page_failure(exc)
    finally:
        if own and channel is not None:
            await channel.close()
    if outcome.status == "ok":
        return _Outcome("ok", text=result_text(outcome.output))
    return _Outcome(outcome.status, error=outcome.error)


async def _call_polyfill(
    page: Page, tool: ToolRecord, input_json: str, timeout_s: float, max_result_bytes: int
) -> _Outcome:
    call = [list(tool.frame.path), tool.name, input_json, int(timeout_s * 1000), max_result_bytes]
    try:
        async with asyncio.timeout(timeout_s + _HUNG_PAGE_GRACE_S):
            raw = json.loads(await page.evaluate(_CALL, call))
    except TimeoutError:
        return _Outcome("timeout")
    except PlaywrightError as exc:
        return _page_failure(exc)
    status = raw.get("status")
    if status == "ok":
        if raw.get("navigated"):
            return _Outcome("ok", text=result_text(None))
        return _Outcome("ok", text=str(raw.get("text") or ""), total_bytes=int(raw.get("totalBytes") or 0))
    if status in ("timeout", "missing", "cancelled"):
        return _Outcome(status)
    return _Outcome("error", error=str(raw.get("error") or ""))


def _page_failure(exc: PlaywrightError) -> _Outcome:
    if any(marker in exc.message for marker in _NAVIGATED):
        # The tool navigated the page (a form submitted): the call is over and has no result, like executeTool's null.
        return _Outcome("ok", text=result_text(None))
    return _Outcome("error", error=f"the page could not run the tool: {exc.message}")
