"""The browser pool's actions as tools: one tool per action, each with its own schema (easier for models than a
single tool with an `action` switch)."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from agents.events import TargetFacts
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

# How much of a field's value the policy reads to tell what a target says.
TARGET_VALUE_CHARS = 60
# What a click or key press would press: its text, and whether Space or Enter activates it like a click. At a point,
# the control around what is there; for a key press without a target, the focused element (inside shadow roots).
_PRESSABLE = (
    "button, input[type=submit], input[type=image], input[type=button], input[type=reset], [role=button], summary"
)
_FACTS_OF = f"""(el) => el ? {{
  text: (el.innerText || el.value || el.getAttribute("aria-label") || el.title || "").slice(0, 200),
  pressable: el.matches({_PRESSABLE!r}),
}} : {{text: "", pressable: false}}"""
_FACTS_AT_POINT = f"""([x, y]) => {{
  let el = document.elementFromPoint(x, y);
  el = (el && el.closest("button, a, input, [role=button], label, summary")) || el;
  return ({_FACTS_OF})(el);
}}"""
_FACTS_OF_FOCUSED = f"""() => {{
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return ({_FACTS_OF})(el === document.body ? null : el);
}}"""


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


# One description per action as the agent's model reads it, saying what its parameters' own descriptions say
# (those are left out of every request; MCP clients and the Tool Inspector get the actions' full schemas).
MODEL_DESCRIPTIONS = {
    "click": "Click an element or a point; button, double, modifiers (keys held) optional.",
    "type": "Type into a field, replacing its text (clear=false appends; human_like=true: key by key).",
    "scroll": "Scroll the page, or the element's container; amount in px (80% of the view by default).",
    "wait": "Wait ms (10000 at most), or until a selector or text shows (timeout_ms, 5000 by default).",
    "select": "Choose <select> options by value, label or labels (multi-select).",
    "press_key": "Press a key (Enter, Tab, Escape, ArrowDown, a …) on the focused element or the one given.",
    "get_elements": "List interactive elements; visible_only=false: the whole page.",
    "screenshot": "A picture of the viewport (full_page=true: the whole page).",
    "drag_drop": "Drag one element or point (from) onto another (to); each by index, selector, or x and y.",
    "upload_file": "Put an uploaded file (file_id) into a file input or upload button.",
    "switch_tab": "Make a tab current (tab_id from list_tabs).",
    "open_tab": "Open a tab, at url or blank, and make it current.",
    "close_tab": "Close a tab (tab_id from list_tabs).",
    "execute_js": "Run JavaScript in the page (an expression, a function, or statements ending in return); its value "
    "comes back as JSON.",
    "get_element_details": "Whole values, all options, attributes, CSS selector, XPath of elements (indices).",
}


def browser_tool(name: str) -> Tool:
    """The tool of one browser action."""
    spec = ACTIONS[name]
    return Tool(
        name=spec.name,
        description=MODEL_DESCRIPTIONS.get(spec.name, spec.description),
        parameters=spec.schema,
        handler=_handler(spec),
        read_only=spec.read_only,
        source=SOURCE_BROWSER,
        terse=True,
    )


def browser_tools() -> list[Tool]:
    return [browser_tool(name) for name in ACTIONS]


async def target_text(tabs: TabControl, arguments: JsonObject) -> TargetFacts | None:
    """What a click or key press aims at, for the safety policy to recognise submit-like controls ("Pay now",
    "确认删除"); None when it cannot be read, which the policy takes as the riskiest case."""
    try:
        page = tabs.active_page
        if isinstance(arguments.get("index"), int):
            # The start of a field's value is enough to tell a button's words; a whole letter in a textarea is not.
            details = await get_element_details(page, [arguments["index"]], value_chars=TARGET_VALUE_CHARS)
            if not details.found:
                return TargetFacts()  # nothing there to press: the action itself fails
            info = details.found[0].info
            pressable = info.tag in ("button", "summary") or info.role == "button"
            pressable = pressable or (info.tag == "input" and info.type in ("submit", "image", "button", "reset"))
            return TargetFacts(" ".join(part for part in (info.text, info.value) if part), pressable)
        if isinstance(arguments.get("selector"), str):
            facts = await page.locator(arguments["selector"]).first.evaluate(_FACTS_OF, timeout=1_000)
        elif "x" in arguments and "y" in arguments:
            facts = await page.evaluate(_FACTS_AT_POINT, [arguments["x"], arguments["y"]])
        else:
            facts = await page.evaluate(_FACTS_OF_FOCUSED)
    except Exception:  # unreadable: the policy asks rather than guess
        return None
    return TargetFacts(str(facts.get("text") or ""), bool(facts.get("pressable")))
