"""Calls into the in-page model (`page_model.js`) and the per-tab memory that keeps indices unique across pages."""

from __future__ import annotations

import asyncio
import weakref
from importlib import resources
from typing import Any

from playwright.async_api import ElementHandle, Frame, Page
from playwright.async_api import Error as PlaywrightError

MODEL_KEY = "Symbol.for('hive.pageModel.v1')"


def _read_js(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _with_includes(source: str, *names: str) -> str:
    for name in names:
        marker = f"  // @include {name}\n"
        if marker not in source:
            raise RuntimeError(f"page_model.js has no include marker for {name}")
        source = source.replace(marker, _read_js(name), 1)
    return source


PAGE_MODEL_SOURCE = _with_includes(_read_js("page_model.js"), "accname.js", "element_details.js")

LISTENERS_SOURCE = _read_js("listeners.js")
_observed: weakref.WeakSet[Any] = weakref.WeakSet()


async def install_observers(context: Any) -> None:
    """Before the context's pages load anything: record the elements pages make clickable with addEventListener
    (the page model lists them). Idempotent."""
    if context in _observed:
        return
    _observed.add(context)
    await context.add_init_script(script=LISTENERS_SOURCE)


# Installs the model on first use in a document (a navigation gives a fresh one) and calls one of its methods.
_CALL = f"([method, arg]) => (window[{MODEL_KEY}] || {PAGE_MODEL_SOURCE})[method](arg)"
_CHECK = f"(el) => (window[{MODEL_KEY}] || {PAGE_MODEL_SOURCE}).check(el)"
# The same calls for a document that has the model already: sending its 40,000 characters with every call cost the
# browser, Playwright's driver and the worker about 2-4 ms of CPU and 10-30 ms of waiting per call. They answer
# null where the model is not installed yet (then the full call installs it) and `{v: value}` otherwise.
_CALL_INSTALLED = f"([method, arg]) => {{ const m = window[{MODEL_KEY}]; return m ? {{ v: m[method](arg) }} : null; }}"
_CHECK_INSTALLED = f"(el) => {{ const m = window[{MODEL_KEY}]; return m ? {{ v: m.check(el) }} : null; }}"
_INDEX_OF_INSTALLED = (
    f"(el, base) => {{ const m = window[{MODEL_KEY}]; return m ? {{ v: m.indexOf(el, base) }} : null; }}"
)
_ELEMENT = f"(index) => window[{MODEL_KEY}].element(index)"
_FRAME_OF = f"(index) => window[{MODEL_KEY}].frameOf(index)"
_INDEX_OF = f"(el, base) => (window[{MODEL_KEY}] || {PAGE_MODEL_SOURCE}).indexOf(el, base)"
# Run inside the element's own frame so Playwright's handle lives in that frame's context.
_ELEMENT_FROM_FRAME = f"(index) => window.top[{MODEL_KEY}].element(index)"

# A busy page (an endless script) must not stall the agent: observation gives up after this long.
CALL_TIMEOUT_S = 10.0

# Each tab's next free index. A new document continues from here, so an index the model kept from the previous
# page is reported as "from a previous page" rather than silently naming a different element.
_next_index: weakref.WeakKeyDictionary[Page, int] = weakref.WeakKeyDictionary()


class ObservationError(Exception):
    """The page could not be observed; the message is readable by a model."""


class StaleElementError(Exception):
    """An index that no longer names a live element; the message says why and what to do."""

    def __init__(self, index: int, status: str) -> None:
        self.index = index
        self.status = status
        super().__init__(stale_reason(index, status))


def stale_reason(index: int, status: str) -> str:
    if status == "previous-page":
        return (
            f"element [{index}] was on a previous page (the tab navigated or reloaded since); call get_elements again"
        )
    if status == "frame-detached":
        return f"element [{index}] was inside a frame that has been removed or navigated; call get_elements again"
    if status == "gone":
        return f"element [{index}] no longer exists on the page (the page changed); call get_elements again"
    return f"there is no element [{index}] on this page; use an index from the latest get_elements"


def index_base(page: Page) -> int:
    return _next_index.get(page, 1)


def _remember(page: Page, result: Any) -> None:
    if isinstance(result, dict) and isinstance(result.get("next"), int):
        _next_index[page] = max(_next_index.get(page, 1), result["next"])


async def call_model(page: Page, method: str, arg: Any, *, timeout_s: float = CALL_TIMEOUT_S) -> Any:
    """Call `method(arg)` of the page model in the page's top frame."""
    try:
        async with asyncio.timeout(timeout_s):
            installed = await page.evaluate(_CALL_INSTALLED, [method, arg])
            result = installed["v"] if installed is not None else await page.evaluate(_CALL, [method, arg])
    except TimeoutError as exc:
        raise ObservationError(
            f"the page did not answer within {timeout_s:g} s (a script on it is busy); try wait, refresh or navigate"
        ) from exc
    except PlaywrightError as exc:
        raise ObservationError(_page_error_message(exc)) from exc
    _remember(page, result)
    return result


def _page_error_message(exc: PlaywrightError) -> str:
    text = exc.message
    if "closed" in text:
        return "the tab was closed; call list_tabs and switch_tab"
    if "Execution context was destroyed" in text or "navigation" in text:
        return "the page navigated while it was being read; observe it again"
    return f"the page could not be read: {text.splitlines()[0]}"


async def check_element(handle: ElementHandle) -> dict[str, Any]:
    """Why an action on this element would fail now (hidden, disabled, read-only ...), without waiting."""
    installed = await handle.evaluate(_CHECK_INSTALLED)
    result: dict[str, Any] = installed["v"] if installed is not None else await handle.evaluate(_CHECK)
    return result


async def target_info(page: Page, index: int) -> dict[str, Any]:
    """The state of the element behind `index`; raises StaleElementError when it is gone."""
    info: dict[str, Any] = await call_model(page, "target", index)
    if info["status"] != "ok":
        raise StaleElementError(index, info["status"])
    return info


async def index_for(page: Page, handle: ElementHandle) -> int:
    """The page model's index for an element of the page's top document found by other means."""
    base = index_base(page)
    installed = await handle.evaluate(_INDEX_OF_INSTALLED, base)
    result = installed["v"] if installed is not None else await handle.evaluate(_INDEX_OF, base)
    _remember(page, result)
    return int(result["index"])


async def element_handle(page: Page, index: int, *, in_frame: bool) -> ElementHandle:
    """A Playwright handle for the element behind `index`, created in the element's own frame."""
    if not in_frame:
        handle = (await page.evaluate_handle(_ELEMENT, index)).as_element()
    else:
        frame = await _frame_of(page, index)
        handle = (await frame.evaluate_handle(_ELEMENT_FROM_FRAME, index)).as_element()
    if handle is None:
        raise StaleElementError(index, "gone")
    return handle


async def _frame_of(page: Page, index: int) -> Frame:
    frame_element = (await page.evaluate_handle(_FRAME_OF, index)).as_element()
    frame = await frame_element.content_frame() if frame_element is not None else None
    if frame is None or frame.is_detached():
        raise StaleElementError(index, "frame-detached")
    return frame
