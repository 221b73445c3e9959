"""Discovery keeps each tab's tool list current: at load, as a single-page app adds and removes tools, across
navigations, in frames; on native WebMCP (CDP events) and on the polyfill (its toolchange events)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from playwright.async_api import Browser, Page

from browser_pool.config import BrowserConfig
from browser_pool.pool import BrowserPool
from browser_pool.webmcp import PageToolWatcher, ToolDiscovery, ToolRecord, log_webmcp_support
from tests.browser_pool.webmcp.conftest import launch_args
from tests.support.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


def names(tools: list[ToolRecord]) -> list[str]:
    return [tool.name for tool in tools]


class Reports:
    """What `on_tools_changed` was told, per tab."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []
        self._arrived = asyncio.Event()

    async def __call__(self, tab_id: str, tools: list[ToolRecord]) -> None:
        self.calls.append((tab_id, names(tools)))
        self._arrived.set()

    async def wait_for(self, tab_id: str, expected: list[str], timeout_s: float = 5.0) -> None:
        async with asyncio.timeout(timeout_s):
            while (tab_id, expected) not in self.calls:
                self._arrived.clear()
                await self._arrived.wait()


async def test_finds_imperative_declarative_and_frame_tools(page: Page, site: str, mode: str) -> None:
    watcher = PageToolWatcher(page)
    await watcher.start()

    await page.goto(f"{site}/frames.html")
    tools = await watcher.wait_for(lambda tools: len(tools) == 3)

    assert watcher.native is (mode == "native")
    assert [(t.name, t.frame.path) for t in tools] == [("lookup", ()), ("lookup", (1,)), ("pick_seat", (1,))]
    seat = tools[2]
    assert seat.frame.url == f"{site}/seatmap.html"
    assert seat.frame.name == "seatmap"
    assert seat.input_schema is not None
    assert seat.input_schema["required"] == ["seat"]
    assert seat.source == "page"

    await page.goto(f"{site}/forms.html")
    tools = await watcher.wait_for(lambda tools: names(tools) == ["find_flights", "request_callback"])
    assert [(t.declarative, t.autosubmit) for t in tools] == [(True, True), (True, False)]
    await page.goto(f"{site}/tools.html")
    tools = await watcher.wait_for(lambda tools: "search_flights" in names(tools))
    search = next(t for t in tools if t.name == "search_flights")
    assert search.title == "Search flights"
    assert search.annotations.read_only_hint
    assert search.annotations.untrusted_content_hint
    assert not search.annotations.consequential_hint
    assert search.as_dict()["annotations"] == {
        "read_only_hint": True,
        "untrusted_content_hint": True,
        "consequential_hint": False,
    }
    await watcher.close()


async def test_sees_a_single_page_app_add_and_remove_tools_without_a_reload(page: Page, site: str) -> None:
    reports = Reports()
    discovery = ToolDiscovery(reports)
    await page.goto(f"{site}/spa.html")
    watcher = await discovery.watch("t1", page)
    assert watcher.tools == []
    await page.evaluate("() => { window.sameDocument = true; }")

    await page.click("#to-trips")
    await reports.wait_for("t1", ["list_trips"])
    assert discovery.tools("t1")[0].annotations.read_only_hint
    await page.click("#to-home")
    await reports.wait_for("t1", [])

    assert await page.evaluate("() => window.sameDocument") is True
    assert reports.calls == [("t1", ["list_trips"]), ("t1", [])]
    await discovery.close()


async def test_follows_form_tools_added_and_removed_at_run_time(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")
    watcher = PageToolWatcher(page)
    await watcher.start()

    await page.evaluate(
        """() => document.body.insertAdjacentHTML("beforeend",
             '<form id="late" toolname="subscribe" tooldescription="Subscribe to fare alerts" toolautosubmit>' +
             '<input name="email" type="email"></form>')"""
    )
    tools = await watcher.wait_for(lambda tools: names(tools) == ["subscribe"])
    assert tools[0].declarative
    await page.evaluate("() => document.getElementById('late').remove()")
    await watcher.wait_for(lambda tools: tools == [])
    await watcher.close()


async def test_navigation_replaces_the_list_and_reports_an_empty_one(page: Page, site: str) -> None:
    reports = Reports()
    discovery = ToolDiscovery(reports)
    await discovery.watch("t7", page)

    await page.goto(f"{site}/forms.html")
    await reports.wait_for("t7", ["find_flights", "request_callback"])
    await page.goto(f"{site}/results.html")
    await reports.wait_for("t7", [])
    await page.go_back()
    await reports.wait_for("t7", ["find_flights", "request_callback"])
    await page.close()
    await eventually(lambda: discovery.watcher("t7") is None, what="the closed page's watcher to go")
    assert reports.calls[-1] == ("t7", [])
    await discovery.close()


async def test_a_skill_source_counts_only_for_a_skill_the_worker_injected(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")
    watcher = PageToolWatcher(page)
    await watcher.start()

    await page.evaluate(
        """() => { const hive = window[Symbol.for("hive.webmcp.v1")];
                   hive.registerTool({ name: "shop_search", description: "Search the shop", execute: () => [] },
                                     { source: "shop-skill" });
                   hive.registerTool({ name: "pretender", description: "Claims to be a SKILL", execute: () => 1 },
                                     { source: "bank-skill" }); }"""
    )
    tools = await watcher.wait_for(lambda tools: len(tools) == 2)
    assert [(t.name, t.source) for t in tools] == [("pretender", "page"), ("shop_search", "page")]

    watcher.expect_skill("shop-skill")
    tools = await watcher.wait_for(lambda tools: any(t.source != "page" for t in tools))
    assert [(t.name, t.source) for t in tools] == [("pretender", "page"), ("shop_search", "shop-skill")]
    await watcher.close()


async def test_the_pool_installs_the_bridge_and_discovery_follows_a_sessions_tabs(site: str) -> None:
    pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=0))
    await pool.start()
    reports = Reports()
    discovery = ToolDiscovery(reports)
    try:
        session = await pool.acquire("conversation-1")
        await discovery.watch_session(session)
        first = session.active_tab_id

        await session.active_page.goto(f"{site}/legacy.html")  # legacy API: only served through the bridge
        await reports.wait_for(first, ["add_to_cart", "checkout", "list_cart"])
        second = (await session.open_tab(f"{site}/spa.html#trips")).id
        await reports.wait_for(second, ["list_trips"])

        assert first != second
        assert names(discovery.tools(first)) == ["add_to_cart", "checkout", "list_cart"]
    finally:
        await discovery.close()
        await pool.stop(save_sessions=False)


async def test_start_up_says_which_webmcp_serves(
    browsers: dict[str, Browser], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="browser_pool.webmcp")

    assert await log_webmcp_support(browsers["native"]) is True
    assert await log_webmcp_support(browsers["polyfill"]) is False

    assert "has native document.modelContext" in caplog.text
    assert "has no native document.modelContext" in caplog.text
    assert "Hive's polyfill serves" in caplog.text
    assert launch_args("polyfill") != launch_args("native")
