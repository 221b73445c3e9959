"""navigate, go_back/go_forward/refresh, wait, screenshot and execute_js on real pages."""

from __future__ import annotations

import socket
import struct
import time

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.actions import page as page_actions
from tests.browser_pool.page.conftest import ContextTabs

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG's start-of-frame segment."""
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    at = 2
    while at < len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise AssertionError("no frame header")


async def test_navigate_opens_the_page(tabs: ContextTabs, page: Page, site: str) -> None:
    result = await execute_action(tabs, "navigate", {"url": f"{site}/forms.html"})

    assert result.ok, result.error
    assert result.navigated
    assert result.url == f"{site}/forms.html"
    assert result.data == {"status": 200, "title": "Sign up"}
    assert await page.title() == "Sign up"


async def test_navigate_adds_the_scheme_a_model_left_out(tabs: ContextTabs, page: Page, site: str) -> None:
    result = await execute_action(tabs, "navigate", {"url": site.removeprefix("http://") + "/next.html"})

    assert result.ok, result.error
    assert page.url == f"{site}/next.html"


async def test_navigate_reports_an_error_page(tabs: ContextTabs, page: Page, site: str) -> None:
    result = await execute_action(tabs, "navigate", {"url": f"{site}/missing.html"})

    assert result.ok
    assert result.data["status"] == 404
    assert result.data["note"] == "the server answered 404; the page is probably an error page"


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,<b>x</b>", "chrome://version"]
)
async def test_navigate_refuses_other_schemes(tabs: ContextTabs, page: Page, site: str, url: str) -> None:
    await page.goto(f"{site}/forms.html")

    result = await execute_action(tabs, "navigate", {"url": url})

    assert not result.ok
    assert result.error == f"{url.split(':')[0]}: URLs cannot be opened; only http and https pages"
    assert page.url == f"{site}/forms.html"


async def test_navigate_to_a_closed_port_fails_readably(tabs: ContextTabs, page: Page) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once the probe closes: nothing listens there

    result = await execute_action(tabs, "navigate", {"url": f"http://127.0.0.1:{port}/"})

    assert not result.ok
    assert result.error == "the page could not be loaded (net::ERR_CONNECTION_REFUSED)"


async def test_history_back_forward_and_refresh(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.goto(f"{site}/next.html")

    back = await execute_action(tabs, "go_back", {})
    assert back.ok
    assert back.navigated
    assert back.url == f"{site}/forms.html"
    forward = await execute_action(tabs, "go_forward", {})
    assert forward.ok
    assert forward.url == f"{site}/next.html"
    no_more = await execute_action(tabs, "go_forward", {})
    assert not no_more.ok
    assert no_more.error.startswith("there is no later page")

    await page.evaluate("window.marker = 1")
    refreshed = await execute_action(tabs, "refresh", {})
    assert refreshed.ok
    assert refreshed.navigated
    assert await page.evaluate("typeof window.marker") == "undefined"


async def test_go_back_in_a_fresh_tab_says_there_is_nothing(tabs: ContextTabs) -> None:
    result = await execute_action(tabs, "go_back", {})

    assert not result.ok
    assert result.error == "there is no earlier page in this tab's history"


async def test_wait_for_time_text_and_selector(
    tabs: ContextTabs, page: Page, site: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await page.goto(f"{site}/next.html")

    text = await execute_action(tabs, "wait", {"text": "Results are ready"})
    assert text.ok, text.error
    await page.click("#slow")
    late = await execute_action(tabs, "wait", {"selector": "#late"})
    assert late.ok
    assert await page.is_visible("#late")

    started = time.perf_counter()
    missing = await execute_action(tabs, "wait", {"text": "Never shown", "timeout_ms": 300})
    assert not missing.ok
    assert missing.error == "the text 'Never shown' did not appear within 0.3 s"
    assert time.perf_counter() - started < 2

    monkeypatch.setattr(page_actions, "WAIT_CAP_MS", 200)
    capped = await execute_action(tabs, "wait", {"ms": 60_000})
    assert capped.data == {"waited_ms": 200, "note": "waits are capped at 0.2 s"}


async def test_screenshot_of_the_viewport_and_the_whole_page(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    viewport = await execute_action(tabs, "screenshot", {})
    whole = await execute_action(tabs, "screenshot", {"full_page": True})

    assert viewport.ok
    assert viewport.screenshot is not None
    assert jpeg_size(viewport.screenshot) == (1280, 800)
    assert whole.screenshot is not None
    width, height = jpeg_size(whole.screenshot)
    assert width == 1280
    assert height == await page.evaluate("document.documentElement.scrollHeight")
    assert "screenshot" not in viewport.as_dict()  # bytes travel separately from what the model reads


async def test_execute_js_returns_json_and_changes_the_page(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    expression = await execute_action(tabs, "execute_js", {"code": "document.title"})
    body = await execute_action(
        tabs, "execute_js", {"code": "document.getElementById('out').textContent = 'from js';\nreturn {n: 2, ok: true}"}
    )
    function = await execute_action(tabs, "execute_js", {"code": "() => [...document.forms].map(f => f.id)"})

    assert expression.data == {"result": '"Sign up"'}
    assert body.data == {"result": '{"n": 2, "ok": true}'}
    assert function.data == {"result": '["signup"]'}
    assert await page.text_content("#out") == "from js"


async def test_execute_js_caps_large_results(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    result = await execute_action(tabs, "execute_js", {"code": "'x'.repeat(10000)"})

    assert result.ok
    assert result.data["truncated"] is True
    assert len(result.data["result"]) == page_actions.JS_RESULT_MAX_CHARS
    assert result.data["full_length"] == 10002


async def test_execute_js_reports_script_errors(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    thrown = await execute_action(tabs, "execute_js", {"code": "throw new Error('boom')"})
    syntax = await execute_action(tabs, "execute_js", {"code": "let = = 1"})

    assert not thrown.ok
    assert thrown.error == "the script failed: Error: boom"
    assert not syntax.ok
    assert syntax.error.startswith("the script failed: SyntaxError")


async def test_an_endless_script_is_stopped_and_the_tab_recovers(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    started = time.perf_counter()
    result = await execute_action(tabs, "execute_js", {"code": "while (true) {}"}, timeout_ms=800)
    elapsed = time.perf_counter() - started

    assert not result.ok
    assert result.error == "the script did not finish within 0.8 s and was stopped"
    assert elapsed < 3
    after = await execute_action(tabs, "execute_js", {"code": "document.title"}, timeout_ms=2000)
    assert after.ok
    assert after.data == {"result": '"Sign up"'}
