"""The action registry and `execute_action`: validate, run, and report what changed on the page."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from pydantic import ValidationError as ParamsError

from browser_pool.actions import forms, page, pointer
from browser_pool.actions import params as p
from browser_pool.actions import tabs as tab_actions
from browser_pool.actions.context import ActionContext, Outcome
from browser_pool.actions.errors import REFRESH_HINT, ActionError, explain_playwright_error
from browser_pool.actions.targets import describe_aim
from browser_pool.actions.watch import PageWatch, stop_page_scripts, take_dialogs
from browser_pool.downloads import download_count, download_started, downloads_since
from browser_pool.errors import TabLimitError
from browser_pool.net.proxy import BlockedRequest, listener_for
from browser_pool.notices import take_notices
from browser_pool.observe import ObservationError
from browser_pool.page_cdp import open_page_cdp
from browser_pool.replay import element_gone
from browser_pool.types import ActionResult, JsonObject, TabControl, TabInfo

P = TypeVar("P", bound=p.Params)

# How long to wait after an action for a popup it may have opened: a link to another window opens its tab a few
# milliseconds after the click returns; a script's window.open usually before.
POPUP_GRACE_S = 0.5
POPUP_GRACE_ANY_S = 0.05


@dataclass(frozen=True, slots=True)
class ActionSpec(Generic[P]):
    """One action: its name and description for models, the typed arguments its handler takes (its JSON schema is
    generated from them), and what it may do to the page."""

    name: str
    description: str
    params: type[P]
    handler: Callable[[ActionContext, P], Awaitable[Outcome]]
    # True when the action cannot change a site's data or the page's content (looking, scrolling, waiting).
    read_only: bool = False
    # Whether the action can make the page open a popup, so tabs are compared before and after.
    may_open_tab: bool = False
    schema: JsonObject = field(init=False)

    def __post_init__(self) -> None:
        schema = p.schema_of(self.params)
        Draft202012Validator.check_schema(schema)
        object.__setattr__(self, "schema", schema)

    def typed(self, args: JsonObject) -> P | ActionResult:
        """Arguments that fit the schema, as this action's typed arguments (or a failed result in the rare case the
        schema lets through what the type refuses)."""
        try:
            return self.params.model_validate(args)
        except ParamsError as exc:
            error = f"invalid arguments for {self.name}: {exc.errors()[0]['msg']}"
            return ActionResult(ok=False, action=self.name, error=error, suggestion=_describe_parameters(self.schema))

    def as_tool(self) -> dict[str, Any]:
        """The OpenAI-style function-tool description."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.schema}}  # fmt: skip


ACTIONS: dict[str, ActionSpec[Any]] = {
    spec.name: spec
    for spec in (
        ActionSpec("click", "Click an element or a point: right, double, with keys held.", p.Click, pointer.click,
                   may_open_tab=True),
        ActionSpec("type", "Type into a text field.", p.TypeText, forms.type_text, may_open_tab=True),
        ActionSpec("scroll", "Scroll the page, or the container of the element given.", p.Scroll, pointer.scroll,
                   read_only=True),
        ActionSpec("navigate", "Open an http(s) address in this tab.", p.Navigate, page.navigate),
        ActionSpec("screenshot", "A picture of the viewport or the whole page.", p.Screenshot, page.screenshot,
                   read_only=True),
        ActionSpec("wait", "Wait some ms, or until a selector or text shows (10 s at most).", p.Wait, page.wait,
                   read_only=True),
        ActionSpec("hover", "Move the mouse over an element or a point (menus).", p.Hover, pointer.hover,
                   read_only=True),
        ActionSpec("select", "Choose <select> options by value, label or labels.", p.Select, forms.select),
        ActionSpec("press_key", "Press a key on the focused element, or on the one given.", p.PressKey,
                   forms.press_key, may_open_tab=True),
        ActionSpec("go_back", "Back to the previous page.", p.NoArguments, page.go_back),
        ActionSpec("go_forward", "Forward again after go_back.", p.NoArguments, page.go_forward),
        ActionSpec("refresh", "Reload the current page.", p.NoArguments, page.refresh),
        ActionSpec("drag_drop", "Drag one element or point onto another.", p.DragDrop, pointer.drag_drop),
        ActionSpec("upload_file", "Put an uploaded file into a file input or upload button.", p.UploadFile,
                   forms.upload_file),
        ActionSpec("switch_tab", "Make a tab current.", p.TabRef, tab_actions.switch_tab, read_only=True),
        ActionSpec("open_tab", "Open a tab (at an address) and make it current.", p.OpenTab, tab_actions.open_tab),
        ActionSpec("close_tab", "Close a tab.", p.TabRef, tab_actions.close_tab),
        ActionSpec("list_tabs", "The open tabs: ids, titles, addresses.", p.NoArguments, tab_actions.list_tabs,
                   read_only=True),
        ActionSpec("execute_js", "Run JavaScript in the page; its value comes back as JSON.", p.ExecuteJs,
                   page.execute_js, may_open_tab=True),
        ActionSpec("get_elements", "List interactive elements: [index], kind, name, value, states.",
                   p.GetElements, tab_actions.get_elements, read_only=True),
        ActionSpec("get_element_details", "Whole values, all options, attributes, CSS selector, XPath of elements.",
                   p.GetElementDetails, tab_actions.get_element_details, read_only=True),
    )
}  # fmt: skip

_VALIDATORS = {name: Draft202012Validator(spec.schema) for name, spec in ACTIONS.items()}


def _describe_parameters(schema: JsonObject) -> str:
    required = set(schema.get("required", []))
    parts = [
        f"{name} ({prop.get('type', 'value')}{', required' if name in required else ''})"
        for name, prop in schema["properties"].items()
    ]
    return "parameters: " + (", ".join(parts) if parts else "none")


def validate_arguments(name: str, args: Any) -> ActionResult | None:
    """None when `args` fit the action's schema, else a failed result saying what is wrong."""
    spec = ACTIONS.get(name)
    if spec is None:
        return ActionResult(
            ok=False, action=name, error=f"unknown action {name!r}", suggestion="use one of: " + ", ".join(ACTIONS)
        )
    error: ValidationError | None = best_match(_VALIDATORS[name].iter_errors(args))
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path)
    message = f"invalid arguments for {name}: " + (f"{where}: " if where else "") + error.message
    return ActionResult(ok=False, action=name, error=message, suggestion=_describe_parameters(spec.schema))


def parse_arguments(name: str, args: Any) -> p.Params | ActionResult:
    """The action's typed arguments, or a failed result saying what is wrong with them. The schema is the contract
    models and clients read, so it decides; the typed model then only converts."""
    invalid = validate_arguments(name, args)
    if invalid is not None:
        return invalid
    typed: p.Params | ActionResult = ACTIONS[name].typed(args)
    return typed


def _time_budget_s(params: p.Params, timeout_ms: int) -> float:
    """A hard ceiling on the whole action, well above its own timeouts, so nothing can hang a turn."""
    budget = 3 * timeout_ms / 1000 + page.NAVIGATION_TIMEOUT_MS / 1000 + 5
    if isinstance(params, p.TypeText) and params.human_like:
        budget += len(params.text) * 0.2
    return budget


# Actions that load a page: when the firewall refuses that page itself, the action failed.
NAVIGATING_ACTIONS = frozenset({"navigate", "open_tab", "refresh", "go_back", "go_forward", "click", "press_key"})


async def execute_action(
    tabs: TabControl,
    name: str,
    args: JsonObject,
    *,
    uploads: Mapping[str, Path] | None = None,
    timeout_ms: int = 5000,
) -> ActionResult:
    """Run one action on the active tab. User-level problems come back as ok=False with a suggestion."""
    params = parse_arguments(name, args)
    if isinstance(params, ActionResult):
        return params
    return await perform(tabs, ACTIONS[name], params, uploads=uploads, timeout_ms=timeout_ms)


async def perform(
    tabs: TabControl,
    spec: ActionSpec[P],
    params: P,
    *,
    uploads: Mapping[str, Path] | None = None,
    timeout_ms: int = 5000,
) -> ActionResult:
    """Run an action with arguments already typed (`parse_arguments`)."""
    name = spec.name
    active: Page = tabs.active_page
    watch = PageWatch(active)
    ctx = ActionContext(tabs, active, watch, uploads or {}, timeout_ms)
    tabs_before = set(tabs.tab_ids()) if spec.may_open_tab else set()
    firewall = listener_for(active.context)
    blocked_before = firewall.blocked_count if firewall is not None else 0
    downloads_before = download_count(active.context)
    await open_page_cdp(active)  # while the page answers: stopping a runaway script and the step's picture use it
    result = ActionResult(ok=True, action=name)
    if isinstance(params, p.ElementAim) and params.aimed:
        # However it was aimed (index, selector, a point), the element is recorded so a workflow finds it again.
        result.target, ctx.aimed = await describe_aim(active, params)
    watch.start()
    try:
        async with asyncio.timeout(_time_budget_s(params, timeout_ms)):
            outcome = await spec.handler(ctx, params)
            if spec.may_open_tab:
                await watch.wait_for_popup(POPUP_GRACE_S if ctx.expects_popup else POPUP_GRACE_ANY_S)
            await watch.dialogs_settled()  # a dialog the action caused is answered before it reports
        result.data, result.screenshot, result.new_tab = outcome.data, outcome.screenshot, outcome.new_tab
    except ActionError as exc:
        result.ok, result.error, result.suggestion = False, exc.error, exc.suggestion
    except ObservationError as exc:
        result.ok, result.error = False, str(exc)
    except TabLimitError as exc:
        result.ok, result.error, result.suggestion = False, str(exc), "close a tab you no longer need with close_tab"
    except PlaywrightError as exc:
        _explain_failure(result, exc, ctx)
    except TimeoutError:
        stopped = await stop_page_scripts(active)
        result.ok, result.error = False, f"{name} did not finish in time"
        if stopped:
            result.error += " (a busy script on the page was stopped)"
        result.suggestion = "the page may be busy or stuck; try wait, refresh or navigate"
    finally:
        watch.stop()
        await watch.dialogs_settled()  # the ones still unanswered were dismissed: their notes are in the report
    await _report_changes(result, watch, tabs, tabs_before, timeout_ms)
    if result.ok and result.target is not None and ctx.handle is not None and not result.navigated:
        result.target["gone_after"] = await element_gone(ctx.handle)
    if firewall is not None:
        _report_blocked(result, firewall.blocked_since(blocked_before), ctx.subject)
    result.notices = take_notices(active.context)  # what the pool did to the session's tabs meanwhile
    result.downloads = await downloads_since(
        active.context, downloads_before, expected=ctx.expects_download
    )  # the files the page downloaded
    return result


def _same_document(blocked: BlockedRequest, url: str) -> bool:
    """Whether the refused request was for this page itself: the same URL for plain http; for a tunnel (https),
    whose path the proxy cannot see, the same host and port."""
    if not url.startswith(("http://", "https://")):
        return False
    if blocked.url.startswith("http://"):
        return blocked.url.split("#", 1)[0] == url.split("#", 1)[0]
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    return (
        parts.scheme == "https"
        and (parts.hostname or "").rstrip(".") == blocked.host.strip("[]").rstrip(".")
        and port == blocked.port
    )


def _report_blocked(result: ActionResult, blocked: list[BlockedRequest], target: str) -> None:
    """Say what the network firewall refused; when it refused the page the action went to, the action failed."""
    if not blocked:
        return
    main = next((b for b in blocked if _same_document(b, target) or _same_document(b, result.url)), None)
    if main is not None and result.action in NAVIGATING_ACTIONS:
        result.ok, result.error = False, main.describe()
        result.suggestion = (
            "this address is inside Hive's network and cannot be opened; use a public address "
            "(an operator can allow a host with HIVE_EGRESS_ALLOW)"
        )
    shown = [f"{b.host}:{b.port} ({b.reason})" for b in blocked[:5]]
    result.blocked = shown + ([f"... and {len(blocked) - 5} more"] if len(blocked) > 5 else [])


def _explain_failure(result: ActionResult, exc: PlaywrightError, ctx: ActionContext) -> None:
    if download_started(exc):  # the address is a file: the browser downloads it, which `downloads` reports
        result.data["note"] = "the address is a file, not a page: the browser downloaded it"
        return
    result.ok = False
    if ctx.watch.navigated and not isinstance(exc, PlaywrightTimeoutError):
        result.error = (
            f"the page navigated to {ctx.page.url} while {result.action} was running, so it may not have finished"
        )
        result.suggestion = REFRESH_HINT
        return
    explained = explain_playwright_error(exc, ctx.subject or "the page", ctx.timeout_ms)
    result.error, result.suggestion = explained.error, explained.suggestion


async def _report_changes(
    result: ActionResult, watch: PageWatch, tabs: TabControl, tabs_before: set[str], timeout_ms: int
) -> None:
    page_closed = watch.page.is_closed()
    if not page_closed:
        await watch.settle(timeout_ms)
        result.navigated = result.navigated or watch.navigated
    if result.action in ("switch_tab", "open_tab", "close_tab"):
        with contextlib.suppress(PlaywrightError):
            result.url = tabs.active_page.url
    elif not page_closed:
        result.url = watch.page.url
    dialogs = take_dialogs(watch.page) + [text for popup in watch.popups for text in take_dialogs(popup)]
    if dialogs:
        result.dialog = "; ".join(dialogs)
    if watch.popups and result.new_tab is None:
        result.new_tab = await _find_new_tab(tabs, tabs_before, watch.popups[-1])
        result.data.setdefault(
            "note",
            "the page opened a new tab, which is now the current one"
            if result.new_tab.active
            else "the page opened a new tab; use switch_tab to work in it",
        )


async def _find_new_tab(tabs: TabControl, tabs_before: set[str], popup: Page) -> TabInfo:
    """The tab the session made for the popup; the session may register it a moment after the event."""
    for _ in range(10):
        fresh = [tab for tab in await tabs.list_tabs() if tab.id not in tabs_before]
        if fresh:
            return fresh[-1]
        await asyncio.sleep(0.05)
    title = ""
    with contextlib.suppress(PlaywrightError):
        title = await popup.title()
    return TabInfo(id="", title=title, url=popup.url)
