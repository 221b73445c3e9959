"""Popups, the tab actions, and JavaScript dialogs reported in the action result."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.actions.watch import DialogAnswer, DialogInfo, PageWatch, dialogs_answered_by
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


@pytest.mark.parametrize("control", ["Open window", "New tab link"])
async def test_a_popup_is_reported_as_a_new_tab(tabs: ContextTabs, page: Page, site: str, control: str) -> None:
    await page.goto(f"{site}/popups.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, control)})

    assert result.ok, result.error
    assert result.new_tab is not None
    assert result.new_tab.id == "t2"
    assert result.new_tab.url == f"{site}/next.html"
    assert result.data["note"] == "the page opened a new tab, which is now the current one"
    assert not result.navigated
    assert result.url == f"{site}/popups.html"
    assert tabs.active_page.url == f"{site}/next.html"
    assert await tabs.active_page.title() == "Next page"


async def test_a_window_a_script_opens_is_reported_even_when_the_browser_announces_it_late(
    tabs: ContextTabs, page: Page, site: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a busy machine the browser announces a script's popup some time after the click returned.
    announce = PageWatch._on_popup

    def late(watch: PageWatch, popup: Page) -> None:
        asyncio.get_running_loop().call_later(0.4, announce, watch, popup)

    monkeypatch.setattr(PageWatch, "_on_popup", late)
    await page.goto(f"{site}/popups.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Open window")})

    assert result.ok, result.error
    assert result.new_tab is not None
    assert result.new_tab.url == f"{site}/next.html"


async def test_list_switch_open_and_close_tabs(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    opened = await execute_action(tabs, "open_tab", {"url": f"{site}/next.html"})
    assert opened.ok
    assert opened.new_tab is not None
    assert opened.url == f"{site}/next.html"
    listed = await execute_action(tabs, "list_tabs", {})
    assert [(tab["id"], tab["title"], tab["active"]) for tab in listed.data["tabs"]] == [
        ("t1", "Sign up", False),
        ("t2", "Next page", True),
    ]

    switched = await execute_action(tabs, "switch_tab", {"tab_id": "t1"})
    assert switched.ok
    assert switched.url == f"{site}/forms.html"
    assert tabs.active_page is page

    closed = await execute_action(tabs, "close_tab", {"tab_id": "t2"})
    assert closed.ok
    assert [tab["id"] for tab in closed.data["tabs"]] == ["t1"]


async def test_tab_mistakes_are_explained(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    unknown = await execute_action(tabs, "switch_tab", {"tab_id": "t9"})
    bad_url = await execute_action(tabs, "open_tab", {"url": "file:///etc/passwd"})

    assert not unknown.ok
    assert unknown.error == "there is no tab 't9'"
    assert unknown.suggestion == "open tabs: t1 (Sign up)"
    assert not bad_url.ok
    assert bad_url.error.startswith("file: URLs cannot be opened")
    assert len(await tabs.list_tabs()) == 1


async def test_an_alert_is_answered_and_its_text_reported(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/popups.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "click", {"index": index_of(listing, "Alert")})

    assert result.ok, result.error
    assert result.dialog == 'alert "Saved!" (answered automatically)'
    assert await page.text_content("#out") == "after alert"


async def test_confirm_and_prompt_are_answered_by_the_contexts_answerer(
    tabs: ContextTabs, page: Page, site: str
) -> None:
    await page.goto(f"{site}/popups.html")
    listing = await get_elements(page)
    asked: list[DialogInfo] = []

    async def accept(dialog: DialogInfo) -> DialogAnswer:
        asked.append(dialog)
        return DialogAnswer(True, "answered automatically")

    with dialogs_answered_by(page.context, accept):
        confirmed = await execute_action(tabs, "click", {"index": index_of(listing, "Delete")})
        assert confirmed.dialog == 'confirm "Delete the item?" (answered automatically)'
        assert await page.text_content("#out") == "confirmed"

        named = await execute_action(tabs, "click", {"index": index_of(listing, "Name")})
        assert named.dialog == 'prompt "Your name?" (answered automatically)'
        assert await page.text_content("#out") == "name Ada"  # the prompt's default text
    assert [(d.kind, d.message, d.url) for d in asked] == [
        ("confirm", "Delete the item?", page.url),
        ("prompt", "Your name?", page.url),
    ]

    # Without an answerer nobody can be asked: dismissed, not accepted.
    refused = await execute_action(tabs, "click", {"index": index_of(listing, "Delete")})
    assert refused.dialog == 'confirm "Delete the item?" (dismissed: nobody could be asked)'
    assert await page.text_content("#out") == "cancelled"

    quiet = await execute_action(tabs, "get_elements", {})
    assert quiet.dialog == ""  # each dialog is reported once
