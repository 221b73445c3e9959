"""click, hover, drag_drop and scroll, checked by what changed on the page."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_click_by_index_submits_the_form(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.fill("#email", "ada@example.com")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Create account")})

    assert result.ok, result.error
    assert await page.text_content("#out") == "submitted ada@example.com"
    assert not result.navigated
    assert result.data["target"] == f'element [{index_of(listing, "Create account")}] (button "Create account")'


async def test_click_a_link_reports_the_navigation(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Next page")})

    assert result.ok
    assert result.navigated
    assert result.url == f"{site}/next.html"
    assert await page.title() == "Next page"


async def test_click_an_element_below_the_viewport_scrolls_to_it(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page, "button", visible_only=False)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Far away")})

    assert result.ok, result.error
    assert await page.text_content("#out") == "far clicked"


async def test_click_by_selector_reaches_into_shadow_roots(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/shadow.html")
    await page.fill("#from", "Paris")  # Playwright's CSS pierces open shadow roots, as the action does

    result = await execute_action(tabs, "click", {"selector": "#go"})

    assert result.ok, result.error
    assert await page.text_content("#out") == "searching Paris"


async def test_click_by_index_inside_nested_shadow_roots(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/shadow.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Deep button")})

    assert result.ok, result.error
    assert await page.text_content("#out") == "deep clicked"


async def test_type_and_click_by_index_inside_an_iframe(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/frames.html")
    frame = page.frame_locator("#pay")
    await frame.locator("#confirm").wait_for()
    listing = await get_elements(page)
    card = next(item.index for item in listing.items if item.placeholder == "Card number")

    typed = await execute_action(tabs, "type", {"index": card, "text": "4242"})
    clicked = await execute_action(tabs, "click", {"index": index_of(listing, "Confirm payment")})

    assert typed.ok, typed.error
    assert clicked.ok, clicked.error
    assert await frame.locator("#out").text_content() == "paid 4242"


async def test_click_at_a_point(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)
    add = listing.by_index(index_of(listing, "Add item"))
    assert add is not None

    result = await execute_action(tabs, "click", {"x": add.rect.center[0], "y": add.rect.center[1]})

    assert result.ok, result.error
    assert await page.locator("#items li").count() == 3


async def test_hover_opens_a_css_menu_whose_items_then_appear_as_new(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/hover.html")
    before = await get_elements(page)
    assert "Laptops" not in before.text

    hovered = await execute_action(tabs, "hover", {"index": index_of(before, "Products")})
    after = await get_elements(page)

    assert hovered.ok, hovered.error
    laptops = after.by_index(index_of(after, "Laptops"))
    assert laptops is not None
    assert laptops.new
    # Moving the mouse onto the item keeps the menu open; clicking it follows the link.
    clicked = await execute_action(tabs, "click", {"index": laptops.index})
    assert clicked.ok, clicked.error
    assert page.url.endswith("#laptops")


async def test_hover_by_selector_triggers_mouseenter(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/hover.html")

    hovered = await execute_action(tabs, "hover", {"selector": "#account"})
    clicked = await execute_action(tabs, "click", {"selector": "#logout"})

    assert hovered.ok, hovered.error
    assert clicked.ok, clicked.error
    assert await page.text_content("#out") == "logged out"


async def test_drag_drop_html5(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dnd.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "drag_drop", {"from": {"index": index_of(listing, "Drag me")}, "to": {"selector": "#bin"}}
    )

    assert result.ok, result.error
    assert await page.text_content("#out") == "dropped card"
    assert await page.evaluate("document.getElementById('card').parentElement.id") == "bin"


async def test_drag_drop_with_plain_mouse_events_to_a_point(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/dnd.html")
    listing = await get_elements(page)
    knob = listing.by_index(index_of(listing, "Volume"))
    assert knob is not None
    x, y = knob.rect.center

    result = await execute_action(tabs, "drag_drop", {"from": {"index": knob.index}, "to": {"x": x + 200, "y": y}})

    assert result.ok, result.error
    assert 190 <= int(await page.text_content("#level") or 0) <= 210


async def test_scroll_the_page_and_learn_when_it_ends(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/scroll.html")

    down = await execute_action(tabs, "scroll", {"direction": "down", "amount": 500})
    assert down.ok
    assert down.data["moved"] == [0, 500]
    assert down.data["container"] == "page"
    assert await page.evaluate("scrollY") == 500

    up = await execute_action(tabs, "scroll", {"direction": "up", "amount": 2000})
    again = await execute_action(tabs, "scroll", {"direction": "up"})
    assert up.data["moved"] == [0, -500]
    assert up.data["note"] == "reached the up end"
    assert again.data["note"] == "nothing moved: already at the up end"


async def test_scroll_a_panel_through_one_of_its_elements(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/scroll.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "scroll", {"direction": "down", "amount": 300, "index": index_of(listing, "Row 1")}
    )

    assert result.ok, result.error
    assert result.data["container"] == "div#panel"
    assert await page.evaluate("document.getElementById('panel').scrollTop") == 300
    assert await page.evaluate("scrollY") == 0
    assert "Row 12" in (await get_elements(page)).text
