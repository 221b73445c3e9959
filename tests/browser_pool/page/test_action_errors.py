"""Actions that cannot be done come back at once as readable errors, never as exceptions or hangs."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import get_elements
from browser_pool.types import ActionResult
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

REFRESH = "call get_elements to see the page as it is now"


async def fails_fast(tabs: ContextTabs, name: str, args: dict[str, Any], **options: Any) -> ActionResult:
    started = time.perf_counter()
    result = await execute_action(tabs, name, args, **options)
    elapsed = time.perf_counter() - started
    assert not result.ok, f"{name} {args} unexpectedly succeeded"
    # Well under the 5 s action timeout: the reason is found before Playwright starts waiting.
    assert elapsed < 2.0, f"{name} took {elapsed:.1f} s to fail: {result.error}"
    return result


async def test_a_removed_element_is_stale(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)
    item = index_of(listing, "Item 1")
    await page.click("#remove")

    result = await fails_fast(tabs, "click", {"index": item})

    assert result.error == f"element [{item}] no longer exists on the page (the page changed); call get_elements again"
    assert result.suggestion == REFRESH


async def test_an_index_from_the_previous_page_is_not_reused(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    old = await get_elements(page)
    await page.goto(f"{site}/dynamic.html")
    new = await get_elements(page)  # the new page's own indices continue after the old ones
    assert min(item.index for item in new.items) > max(item.index for item in old.items)

    result = await fails_fast(tabs, "click", {"index": index_of(old, "Create account")})

    assert "was on a previous page (the tab navigated or reloaded since)" in result.error
    unknown = await fails_fast(tabs, "click", {"index": 99999})
    assert unknown.error == "there is no element [99999] on this page; use an index from the latest get_elements"


async def test_hidden_elements(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)
    vanish = index_of(listing, "Vanish")
    assert (await execute_action(tabs, "click", {"index": vanish})).ok  # it hides itself

    by_index = await fails_fast(tabs, "click", {"index": vanish})
    by_selector = await fails_fast(tabs, "click", {"selector": "#hidden"})

    assert by_index.error == f'element [{vanish}] (button "Vanish") is hidden (not displayed, or zero size)'
    assert by_index.suggestion.startswith("it may appear after hovering over or opening a menu")
    assert (
        by_selector.error
        == "the element matching '#hidden' (button \"Secret\") is hidden (not displayed, or zero size)"
    )


async def test_disabled_elements(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)
    second = index_of(listing, "Item 2")
    await page.click("#disable")

    result = await fails_fast(tabs, "click", {"index": second})

    assert result.error == f'element [{second}] (button "Item 2") is disabled'
    assert await page.evaluate("document.activeElement.id") != "item-2"


async def test_typing_where_it_cannot_go(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)

    readonly = await fails_fast(tabs, "type", {"index": index_of(listing, "Promo code"), "text": "FREE"})
    button = await fails_fast(tabs, "type", {"index": index_of(listing, "Create account"), "text": "x"})

    assert readonly.error.endswith('(input "Promo code") is read-only')
    assert button.error.endswith('(button "Create account") is not a text field')
    assert await page.input_value("#code") == "XYZ-1"


async def test_an_element_in_a_removed_frame(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/frames.html")
    await page.frame_locator("#pay").locator("#confirm").wait_for()
    listing = await get_elements(page)
    confirm = index_of(listing, "Confirm payment")
    assert (await execute_action(tabs, "click", {"index": index_of(listing, "Remove frame")})).ok

    result = await fails_fast(tabs, "click", {"index": confirm})

    assert result.error == (
        f"element [{confirm}] was inside a frame that has been removed or navigated; call get_elements again"
    )


async def test_a_navigation_in_the_middle_of_typing_stops_it(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "type", {"index": index_of(listing, "Type to leave"), "text": "hello world", "human_like": True}
    )

    assert not result.ok
    assert result.error == (
        f"the page navigated to {site}/next.html after 2 of 11 characters were typed; the rest was not typed"
    )
    assert result.navigated
    assert result.url == f"{site}/next.html"
    assert await page.title() == "Next page"


async def test_a_covered_element_names_what_covers_it(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)
    await page.click("#show-overlay")

    started = time.perf_counter()
    result = await execute_action(tabs, "click", {"index": index_of(listing, "Covered")}, timeout_ms=800)

    assert not result.ok
    assert result.error == (
        f'element [{index_of(listing, "Covered")}] (button "Covered") is covered by another element <div id="overlay">'
    )
    assert result.suggestion.startswith("close the dialog, banner or menu on top of it")
    assert time.perf_counter() - started < 3


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"selector": "button"}, "the selector 'button' matches 9 elements"),
        ({"selector": "#nothing"}, "no element matches the selector '#nothing'"),
        ({"selector": "div[[["}, "'div[[[' is not a valid selector"),
        ({"index": 1, "selector": "#add"}, "give exactly one target: index, selector, or x and y"),
        ({}, "give exactly one target: index, selector, or x and y"),
        ({"x": 5}, "give both x and y"),
        ({"x": 5000, "y": 10}, "point (5000, 10) is outside the 1280x800 viewport"),
    ],
)
async def test_targets_that_do_not_name_one_element(
    tabs: ContextTabs, page: Page, site: str, args: dict[str, Any], error: str
) -> None:
    await page.goto(f"{site}/dynamic.html")

    result = await fails_fast(tabs, "click", args)

    assert result.error == error
    assert await page.locator("#items li").count() == 2


@pytest.mark.parametrize(
    ("name", "args", "error"),
    [
        ("click", {"index": "three"}, "invalid arguments for click: index: 'three' is not of type 'integer'"),
        ("type", {"index": 1}, "invalid arguments for type: 'text' is a required property"),
        ("type", {"index": 1, "text": "a", "speed": 3}, "invalid arguments for type: Additional properties are not "
         "allowed ('speed' was unexpected)"),
        ("scroll", {"direction": "sideways"}, "invalid arguments for scroll: direction: 'sideways' is not one of "
         "['up', 'down', 'left', 'right']"),
        ("drag_drop", {"from": {"index": 1}, "to": {"x": "far"}}, "invalid arguments for drag_drop: to.x: 'far' is "
         "not of type 'number'"),
        ("press_key", {"key": "a", "modifiers": ["hyper"]}, "invalid arguments for press_key: modifiers.0: 'hyper' "
         "is not one of ['ctrl', 'alt', 'shift', 'meta']"),
        ("fly", {}, "unknown action 'fly'"),
    ],
)  # fmt: skip
async def test_bad_arguments_are_refused_before_anything_happens(
    tabs: ContextTabs, page: Page, site: str, name: str, args: dict[str, Any], error: str
) -> None:
    await page.goto(f"{site}/dynamic.html")

    result = await fails_fast(tabs, name, args)

    assert result.error == error
    assert result.suggestion
    assert page.url == f"{site}/dynamic.html"


async def test_the_suggestion_for_bad_arguments_lists_the_parameters(tabs: ContextTabs) -> None:
    result = await execute_action(tabs, "type", {"text": 5})

    assert result.suggestion == (
        "parameters: index (integer), selector (string), text (string, required), clear (boolean), human_like (boolean)"
    )
