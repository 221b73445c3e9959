"""Find what an action points at (an index, a CSS selector or a viewport point) and check it can take the action.

The checks run in the page before Playwright acts, so a hidden, disabled or read-only element is reported at
once instead of after Playwright's actionability timeout.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from playwright.async_api import ElementHandle, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.actions.errors import REFRESH_HINT, ActionError
from browser_pool.actions.params import ElementAim, PointAim
from browser_pool.observe.bridge import (
    ObservationError,
    StaleElementError,
    check_element,
    element_handle,
    index_for,
    target_info,
)
from browser_pool.replay import describe_target
from browser_pool.types import RecordedTarget


class Need(Enum):
    """What the action will do with the element, which decides the checks."""

    POINTER = "pointer"  # click, drag: rendered and enabled
    HOVER = "hover"  # rendered
    TEXT = "text"  # typing: rendered, enabled, editable, not read-only
    SELECT = "select"  # a <select>, enabled
    FILE = "file"  # a file input (may be hidden) or something that opens a file chooser
    FOCUS = "focus"  # press_key on an element: rendered


@dataclass(slots=True)
class ElementTarget:
    handle: ElementHandle
    subject: str  # how messages name it, e.g. 'element [12] (button "Pay")'
    state: dict[str, Any]  # the page model's check(): tag, rendered, enabled, editable, options ...


@dataclass(slots=True)
class PointTarget:
    x: float
    y: float

    @property
    def subject(self) -> str:
        return f"point ({self.x:g}, {self.y:g})"


def _named(base: str, state: dict[str, Any]) -> str:
    name = state.get("name") or ""
    return f'{base} ({state["tag"]} "{name}")' if name else f"{base} ({state['tag']})"


_PREFER_INDEX = "an index from get_elements is the most reliable"


# What a point lands on, as a person would name it: the control around the spot (a button's icon is the button), or
# the element itself. Open shadow roots are entered, as a click at that point would be.
_AT_POINT = """([x, y]) => {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  const control = "a[href], button, input, select, textarea, summary, label, [contenteditable=true], [onclick], " +
    "[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], " +
    "[role=switch], [role=treeitem], [role=textbox], [role=combobox]";
  return el ? el.closest(control) || el : null;
}"""


async def describe_aim(page: Page, aim: ElementAim) -> tuple[RecordedTarget | None, ElementHandle | None]:
    """The record of the element the arguments name (browser_pool.replay), however they name it, and a handle to it;
    (None, None) when nothing can be told (no single match, nothing at the point, an element in a frame)."""
    try:
        if aim.index is not None:
            return await describe_target(page, aim.index), None
        handle: ElementHandle | None = None
        if aim.selector is not None:
            # Every match in one go: the count and the handle without asking the page twice.
            handles = await page.locator(aim.selector).element_handles()
            if len(handles) != 1:
                for extra in handles:
                    await extra.dispose()
                return None, None
            handle = handles[0]
        elif isinstance(aim, PointAim) and aim.x is not None and aim.y is not None:
            handle = (await page.evaluate_handle(_AT_POINT, [aim.x, aim.y])).as_element()
        if handle is None:
            return None, None
        return await describe_target(page, await index_for(page, handle)), handle
    except (PlaywrightError, ObservationError):  # the action itself then says what is wrong with its aim
        return None, None


async def resolve(
    page: Page, aim: PointAim, need: Need, *, found: ElementHandle | None = None
) -> ElementTarget | PointTarget:
    """The target named by exactly one of `index`, `selector` or `x`+`y`; `found` is the element `describe_aim`
    already found for a selector, checked again instead of looked up again."""
    has_point = aim.x is not None or aim.y is not None
    given = (aim.index is not None) + (aim.selector is not None)
    if given + has_point != 1:
        raise ActionError("give exactly one target: index, selector, or x and y", _PREFER_INDEX)
    if has_point:
        return await _point(page, aim)
    return await resolve_element(page, aim, need, found=found)


async def document_url(page: Page, *, index: int | None = None, selector: str | None = None) -> str:
    """The address of the document holding the element named by `index` or `selector` (a frame's, for an element in
    one), or the page's when none is named. Raises what resolving the element raises."""
    if index is not None:
        frame = (await element_handle(page, index, in_frame=(await target_info(page, index))["inFrame"])).owner_frame
    elif selector is not None:
        handle = await page.locator(selector).first.element_handle(timeout=2000)
        frame = handle.owner_frame
    else:
        return page.url
    owner = await frame()
    if owner is None:
        raise ActionError("the element is in no document")
    return owner.url


async def resolve_element(
    page: Page, aim: ElementAim, need: Need, *, found: ElementHandle | None = None
) -> ElementTarget:
    """The element named by exactly one of `index` or `selector` (`found`: as for `resolve`)."""
    if aim.index is not None and aim.selector is None:
        return await _by_index(page, aim.index, need)
    if aim.selector is not None and aim.index is None:
        return await _by_selector(page, aim.selector, need, found)
    raise ActionError("give exactly one target: index or selector", _PREFER_INDEX)


async def _point(page: Page, aim: PointAim) -> PointTarget:
    if aim.x is None or aim.y is None:
        raise ActionError("give both x and y")
    width, height = await viewport_size(page)
    x, y = aim.x, aim.y
    if not (0 <= x < width and 0 <= y < height):
        raise ActionError(
            f"point ({x:g}, {y:g}) is outside the {width}x{height} viewport",
            "coordinates are CSS pixels from the top-left of the visible area; scroll to bring the spot into view",
        )
    return PointTarget(x, y)


async def viewport_size(page: Page) -> tuple[int, int]:
    size = page.viewport_size
    if size is not None:
        return size["width"], size["height"]
    width, height = await page.evaluate("() => [innerWidth, innerHeight]")
    return int(width), int(height)


async def _by_index(page: Page, index: int, need: Need) -> ElementTarget:
    try:
        info = await target_info(page, index)
        handle = await element_handle(page, index, in_frame=info["inFrame"])
    except StaleElementError as exc:
        raise ActionError(str(exc), REFRESH_HINT) from exc
    except ObservationError as exc:
        raise ActionError(str(exc)) from exc
    except PlaywrightError as exc:
        raise ActionError(
            f"element [{index}] could not be reached: {exc.message.splitlines()[0]}", REFRESH_HINT
        ) from exc
    target = ElementTarget(handle, _named(f"element [{index}]", info), info)
    _require(target, need)
    return target


async def _by_selector(page: Page, selector: str, need: Need, found: ElementHandle | None) -> ElementTarget:
    handle = found if found is not None else await _only_match(page, selector)
    try:
        state = await check_element(handle)
    except PlaywrightError as exc:
        raise ActionError(f"the element matching {selector!r} disappeared", REFRESH_HINT) from exc
    target = ElementTarget(handle, _named(f"the element matching {selector!r}", state), state)
    _require(target, need)
    return target


async def _only_match(page: Page, selector: str) -> ElementHandle:
    """The one element the selector matches; an error the agent can act on when it matches none or several."""
    locator = page.locator(selector)
    try:
        count = await locator.count()
    except PlaywrightError as exc:
        raise ActionError(
            f"{selector!r} is not a valid selector", "use a CSS selector, e.g. from get_element_details, or an index"
        ) from exc
    if count == 0:
        raise ActionError(f"no element matches the selector {selector!r}", "use an index from get_elements instead")
    if count > 1:
        raise ActionError(
            f"the selector {selector!r} matches {count} elements",
            "use a selector that matches one element (get_element_details gives one) or an index",
        )
    try:
        return await locator.element_handle(timeout=1000)
    except PlaywrightError as exc:
        raise ActionError(f"the element matching {selector!r} disappeared", REFRESH_HINT) from exc


def _require(target: ElementTarget, need: Need) -> None:
    state, subject = target.state, target.subject
    if need is Need.FILE:
        if not state["fileInput"] and not state["rendered"]:
            raise ActionError(f"{subject} is hidden", REFRESH_HINT)
        return
    if not state["rendered"]:
        raise ActionError(
            f"{subject} is hidden (not displayed, or zero size)",
            "it may appear after hovering over or opening a menu; " + REFRESH_HINT,
        )
    if need in (Need.POINTER, Need.TEXT, Need.SELECT) and not state["enabled"]:
        raise ActionError(f"{subject} is disabled", "complete the fields or steps it depends on first")
    if need is Need.TEXT:
        if not state["editable"]:
            raise ActionError(f"{subject} is not a text field", "type into an input, a textarea or an editable area")
        if state["readonly"]:
            raise ActionError(f"{subject} is read-only", "choose a text field that accepts input")
    if need is Need.SELECT and not state["select"]:
        raise ActionError(
            f"{subject} is not a <select> drop-down",
            "for a custom drop-down, click it and then click the option",
        )
