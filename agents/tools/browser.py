"""The browser pool's actions as tools: one tool per action, each with its own schema (easier for models than a
single tool with an `action` switch)."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from agents.tools.base import SOURCE_BROWSER, Tool, ToolContext, ToolError, ToolHandler, ToolOutput
from browser_pool.actions import ACTIONS, ActionSpec, perform
from browser_pool.errors import PoolError
from browser_pool.observe import ObservationError, get_element_details
from browser_pool.types import ActionResult, JsonObject, TabControl

# Tools that only look: the page is as it was, so no fresh summary or screenshot is needed after them.
OBSERVING_ACTIONS = frozenset({"get_elements", "get_element_details", "list_tabs", "screenshot"})

BROWSER_GONE_SUGGESTION = (
    "the browser session is restored on the next turn; tell the user the browser is unavailable right now"
)

_TEXT_AT_POINT = """([x, y]) => {
  let el = document.elementFromPoint(x, y);
  const target = el && el.closest("button, a, input, [role=button], label, summary");
  el = target || el;
  return el ? (el.innerText || el.value || el.getAttribute("aria-label") || "").slice(0, 200) : "";
}"""
_TEXT_OF = """(el) => (el.innerText || el.value || el.getAttribute("aria-label") || el.title || "").slice(0, 200)"""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def _render(result: ActionResult, page_follows: bool) -> str:
    """What the action reports, for the model: its data and what else happened. Whether it failed and why is said
    apart (ToolOutput.for_model), which tool it was the model knows, and the address is in the page summary that
    follows an acting step."""
    if result.action == "get_elements" and result.ok:
        return str(result.data.get("elements", ""))
    report = result.as_dict()
    for said_elsewhere in ("ok", "action", "error", "suggestion", *(("url",) if page_follows else ())):
        report.pop(said_elsewhere, None)
    data = report.pop("data", {})
    if result.action == "screenshot" and result.screenshot is not None:
        data = {**data, "note": "the picture is shown with the step"}
    report = {**data, **report}
    return _json(report) if report else ""


def _handler(spec: ActionSpec[Any]) -> ToolHandler:
    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        # The registry checked the arguments against the action's schema; typing them only converts.
        params = spec.typed(arguments)
        if isinstance(params, ActionResult):
            return ToolOutput(ok=False, error=params.error, suggestion=params.suggestion, action=params)
        try:
            result = await perform(ctx.tabs, spec, params, uploads=ctx.uploads, timeout_ms=ctx.action_timeout_ms)
        except PoolError as exc:
            raise ToolError(f"the browser is not available: {exc}", BROWSER_GONE_SUGGESTION) from exc
        except (PlaywrightError, ObservationError) as exc:
            raise ToolError(f"the page could not be used: {exc}", "try refresh, or navigate to the page again") from exc
        return ToolOutput(
            ok=result.ok,
            text=_render(result, page_follows=spec.name not in OBSERVING_ACTIONS),
            error=result.error,
            suggestion=result.suggestion,
            screenshot=result.screenshot,
            page_changed=spec.name not in OBSERVING_ACTIONS,
            action=result,
        )

    return run


def browser_tool(name: str) -> Tool:
    """The tool of one browser action."""
    spec = ACTIONS[name]
    return Tool(
        name=spec.name,
        description=spec.description,
        parameters=spec.schema,
        handler=_handler(spec),
        read_only=spec.read_only,
        source=SOURCE_BROWSER,
    )


def browser_tools() -> list[Tool]:
    return [browser_tool(name) for name in ACTIONS]


async def target_text(tabs: TabControl, arguments: JsonObject) -> str:
    """The visible text of the element a click or key press aims at ("" when it cannot be told).

    The safety policy needs it to recognise submit-like buttons ("Pay now", "确认删除").
    """
    try:
        page = tabs.active_page
        if isinstance(arguments.get("index"), int):
            details = await get_element_details(page, [arguments["index"]])
            if details.found:
                info = details.found[0].info
                return " ".join(part for part in (info.text, info.value) if part)
            return ""
        if isinstance(arguments.get("selector"), str):
            text: str = await page.locator(arguments["selector"]).first.evaluate(_TEXT_OF, timeout=1_000)
            return text
        if "x" in arguments and "y" in arguments:
            point: str = await page.evaluate(_TEXT_AT_POINT, [arguments["x"], arguments["y"]])
            return point
    except Exception:  # best effort: without the text the policy still judges the page and the action
        return ""
    return ""
