"""Tabs of a session: popups are tracked, switch and close behave like a desktop browser, changes are reported."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from browser_pool.errors import TabNotFoundError
from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.support.waiting import eventually

from .conftest import PoolEvents, running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool_and_events() -> AsyncIterator[tuple[BrowserPool, PoolEvents]]:
    async with running_pool(max_sessions=6, warm_contexts=1) as started:
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session(
    pool_and_events: tuple[BrowserPool, PoolEvents], request: pytest.FixtureRequest
) -> AsyncIterator[Session]:
    pool = pool_and_events[0]
    async with pool.lease(request.node.name) as leased:
        yield leased
    await pool.close_session(request.node.name, save=False)


@pytest.fixture
def events(pool_and_events: tuple[BrowserPool, PoolEvents]) -> PoolEvents:
    return pool_and_events[1]


@pytest.mark.parametrize("opener", ["#blank-link", "#open-window"])
async def test_a_popup_becomes_a_tracked_active_tab_and_is_reported(
    session: Session, events: PoolEvents, site: str, opener: str
) -> None:
    await session.active_page.goto(f"{site}/index.html")

    async with session.context.expect_page() as popup_info:
        await session.active_page.click(opener)
    popup = await popup_info.value
    # A script's window.open starts on about:blank, whose load can come first: wait for the popup's own.
    await popup.wait_for_url("**/popup.html*")

    assert session.active_page is popup
    tabs = await session.list_tabs()
    assert [(t.id, t.title, t.active) for t in tabs] == [("t1", "Home", False), ("t2", "Popup", True)]
    await eventually(
        lambda: [t.title for t in events.tabs.get(session.key, [])] == ["Home", "Popup"],
        what="tabs.updated with the popup",
    )


async def test_switch_and_close_activate_neighbours_and_keep_one_tab(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/plain.html?1")
    await session.open_tab(f"{site}/plain.html?2")
    await session.open_tab(f"{site}/plain.html?3")

    switched = await session.switch_tab("t2")
    assert switched.active
    assert switched.url.endswith("?2")
    assert session.active_page.url.endswith("?2")

    remaining = await session.close_tab("t2")
    assert [(t.id, t.active) for t in remaining] == [("t1", False), ("t3", True)], "the right neighbour takes over"

    remaining = await session.close_tab("t3")
    assert [(t.id, t.active) for t in remaining] == [("t1", True)], "the left one when there is none to the right"

    remaining = await session.close_tab("t1")
    assert len(remaining) == 1, "a session always keeps one tab"
    assert remaining[0].id == "t4"
    assert remaining[0].url == "about:blank"
    assert remaining[0].active


async def test_a_page_closing_its_own_last_tab_gets_a_blank_replacement(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/index.html")
    async with session.context.expect_page() as popup_info:
        await session.active_page.click("#open-window")
    popup = await popup_info.value
    await session.close_tab("t1")
    assert [t.id for t in session.tabs.all] == ["t2"]

    # Only a window opened by a script may close itself, hence the popup. The page may be
    # gone before Playwright's click returns, so the click is queued inside the page.
    async with popup.expect_event("close"):
        await popup.evaluate("() => { setTimeout(() => document.getElementById('close-me').click()) }")

    await eventually(lambda: [t.id for t in session.tabs.all] == ["t3"], what="the replacement tab")
    assert session.active_page.url == "about:blank"


async def test_tab_info_carries_the_page_icon_or_the_origin_favicon(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/index.html")
    await session.open_tab(f"{site}/plain.html")

    home, plain = await session.list_tabs()

    assert home.favicon == f"{site}/icons/home.png"
    assert plain.favicon == f"{site}/favicon.ico"
    assert plain.as_dict() == {"id": "t2", "title": "Plain", "url": f"{site}/plain.html", "favicon": plain.favicon,
                               "active": True}  # fmt: skip


async def test_navigation_is_reported_with_the_new_title(session: Session, events: PoolEvents, site: str) -> None:
    await session.active_page.goto(f"{site}/plain.html")
    await eventually(lambda: [t.title for t in events.tabs.get(session.key, [])] == ["Plain"], what="first page")

    await session.active_page.goto(f"{site}/index.html")

    await eventually(lambda: [t.title for t in events.tabs.get(session.key, [])] == ["Home"], what="navigation")


async def _from_home_to_plain(session: Session, events: PoolEvents, site: str) -> None:
    """The home page, told; then a navigation to the plain page, not told yet."""
    await session.active_page.goto(f"{site}/index.html")
    await eventually(lambda: [t.title for t in events.tabs.get(session.key, [])] == ["Home"], what="first page")
    await session.active_page.goto(f"{site}/plain.html")


async def test_tabs_told_at_the_end_of_a_run_are_where_its_last_navigation_left_them(
    session: Session, events: PoolEvents, site: str
) -> None:
    await _from_home_to_plain(session, events, site)
    await session.tabs_told()

    # No waiting: a script that reads the tabs once its run ended finds the new page (its title may come a moment
    # later on a busy machine).
    assert [t.url for t in events.tabs[session.key]] == [f"{site}/plain.html"]


async def test_a_run_stopped_while_its_tabs_are_told_leaves_them_to_be_told_a_moment_later(
    session: Session, events: PoolEvents, site: str
) -> None:
    await _from_home_to_plain(session, events, site)
    telling = asyncio.create_task(session.tabs_told())
    await asyncio.sleep(0)  # under way: reading the page's title
    telling.cancel()  # the run was stopped
    with pytest.raises(asyncio.CancelledError):
        await telling

    await eventually(lambda: [t.url for t in events.tabs.get(session.key, [])] == [f"{site}/plain.html"],
                     what="the new page told all the same")  # fmt: skip


async def test_a_page_too_busy_to_tell_its_title_is_asked_again_until_it_answers(
    session: Session, events: PoolEvents, site: str
) -> None:
    await session.active_page.goto(f"{site}/busy.html")

    # Its title changes while its thread is busy: no event will tell; only asking again once it is free does.
    await eventually(
        lambda: [t.title for t in events.tabs.get(session.key, [])] == ["Busy page"],
        within_s=10,
        what="the title once the page is free",
    )


async def test_unknown_tab_ids_are_refused_with_the_open_ones_named(session: Session) -> None:
    with pytest.raises(TabNotFoundError, match=r"no tab 't9'.*t1"):
        await session.switch_tab("t9")
    with pytest.raises(TabNotFoundError):
        await session.close_tab("t9")


async def test_a_tab_gone_while_its_devtools_session_opens_leaves_no_unread_failure(
    session: Session, site: str
) -> None:
    """A viewer who leaves (cancelled) while the tab under it closes: the failed session is read and forgotten, not
    reported by the event loop as an error nobody retrieved, and the next tab's session opens."""
    reported: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        await session.open_tab(f"{site}/plain.html?gone")
        tab = session.tabs.active
        await tab.page.close()
        waiter = asyncio.create_task(session.cdp_session(tab))
        await asyncio.sleep(0)  # it has asked for the session and waits
        waiter.cancel()
        await eventually(lambda: tab.id not in session._cdp_sessions, what="the failed session forgotten")
        del waiter
        gc.collect()
        assert not reported, reported
        assert await session.cdp_session(session.tabs.active) is not None
    finally:
        loop.set_exception_handler(None)
