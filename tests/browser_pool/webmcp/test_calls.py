"""Calling tools through the library: checked arguments, the tool's real error, a timeout that aborts the tool, a
size limit with a visible mark; on native WebMCP (CDP) and the polyfill (the bridge)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.async_api import Page

from browser_pool.webmcp import FrameRef, PageToolWatcher, call_tool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


@dataclass
class FakeTab:
    """Stands in for a pool `Tab`: call_tool takes anything with a `.page`."""

    page: Page


async def test_valid_arguments_run_the_tool_and_return_its_result_as_json(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")
    watcher = PageToolWatcher(page)
    await watcher.start()

    result = await call_tool(FakeTab(page), "search_flights", {"origin": "PEK", "destination": "SHA", "direct": True})

    assert result.ok, result.error
    assert result.result_text == (
        '{"flights":[{"number":"HV101","origin":"PEK","destination":"SHA","direct":true,"price":1890}]}'
    )
    assert not result.truncated
    assert result.duration_ms > 0
    assert await page.text_content("#status") == "searched PEK-SHA"
    await watcher.close()


async def test_invalid_arguments_are_refused_before_the_page_sees_them(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")

    missing = await call_tool(page, "search_flights", {"origin": "PEK"})
    too_long = await call_tool(page, "search_flights", {"origin": "PEKING", "destination": "SHA"})
    not_an_object = await call_tool(page, "search_flights", ["PEK", "SHA"])  # type: ignore[arg-type]

    assert not missing.ok
    assert missing.error.startswith("invalid arguments for search_flights: 'destination' is a required property")
    assert "Expected: {origin: string (required), destination: string (required)" in missing.error
    assert too_long.error.startswith("invalid arguments for search_flights: at origin: 'PEKING' is too long")
    assert "must be a JSON object" in not_an_object.error
    assert await page.text_content("#status") == "idle"


async def test_a_throwing_tool_reports_its_real_error(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")

    result = await call_tool(page, "book_flight", {"number": "HV9"})

    assert not result.ok
    assert result.error == "RangeError: flight HV9 is sold out"
    assert result.result_text == ""


async def test_a_slow_tool_times_out_and_its_signal_is_aborted(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")
    await page.evaluate(
        "() => document.modelContext.addEventListener('toolcancel', (e) => { window.cancelled = e.toolName; })"
    )

    result = await call_tool(page, "wait_for_seat", {}, timeout_s=0.3)

    assert not result.ok
    assert result.error == "the tool 'wait_for_seat' did not finish within 0.3 s; it was cancelled"
    assert 300 <= result.duration_ms < 2000
    await page.wait_for_function("() => window.seatWaitAborted === true")
    assert await page.evaluate("() => window.cancelled") == "wait_for_seat"
    assert await page.text_content("#status") == "seat wait cancelled"


async def test_an_oversized_result_is_cut_with_a_visible_mark(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")

    result = await call_tool(page, "fare_rules", {}, max_result_bytes=1000)

    assert result.ok
    assert result.truncated
    kept, mark = result.result_text.rsplit("\n", 1)
    assert kept.startswith("Fare rules. Änderungen kosten 50 €.")
    assert len(kept.encode("utf-8")) <= 1000
    total = len(("Fare rules. " + "Änderungen kosten 50 €. " * 20000).encode("utf-8"))
    assert mark == f"[… truncated by Hive: showing the first {len(kept.encode('utf-8'))} of {total} bytes]"
    small = await call_tool(page, "ping", {}, max_result_bytes=1000)
    assert (small.result_text, small.truncated) == ("pong", False)


async def test_frame_tools_are_called_in_their_frame(page: Page, site: str) -> None:
    await page.goto(f"{site}/frames.html")
    watcher = PageToolWatcher(page)
    await watcher.start()
    await watcher.wait_for(lambda tools: len(tools) == 3)

    picked = await call_tool(page, "pick_seat", {"seat": "12C"})
    refused = await call_tool(page, "pick_seat", {"seat": "row 12"})
    top = await call_tool(page, "lookup")
    framed = await call_tool(page, "lookup", frame=FrameRef(path=(1,)))

    assert picked.result_text == '{"picked":"12C","frame":"/seatmap.html"}'
    assert "does not match '^[0-9]{1,2}[A-F]$'" in refused.error
    assert (top.result_text, framed.result_text) == ("top", "frame")
    await watcher.close()


async def test_form_and_legacy_tools_are_called_like_any_other(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    found = await call_tool(page, "find_flights", {"from": "CAN", "to": "PVG"})
    unknown = await call_tool(page, "find_hotels", {})

    assert found.ok, found.error
    assert found.result_text == '{"found":2,"from":"CAN","to":"PVG","cabin":"economy","direct":false}'
    assert (
        unknown.error == "the page has no WebMCP tool named 'find_hotels' (its tools: find_flights, request_callback)"
    )

    await page.goto(f"{site}/legacy.html")
    added = await call_tool(page, "add_to_cart", {"sku": "SKU-9"})
    closed = await call_tool(page, "checkout", {})
    assert added.result_text == '{"content":[{"type":"text","text":"added SKU-9 (confirmed: true)"}]}'
    assert closed.error == "Error: checkout is closed today"


async def test_a_form_tool_that_navigates_ends_the_call_without_a_result(page: Page, site: str) -> None:
    await page.goto(f"{site}/newsletter.html")

    result = await call_tool(page, "subscribe", {"email": "ann@example.com"})
    await page.wait_for_url(f"{site}/results.html?email=ann%40example.com")

    assert result.ok, result.error
    assert result.result_text in ("null", "[]")  # Chromium's own answer for a navigation is an empty list
