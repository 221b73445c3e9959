"""The hosted browser's network firewall at the library level: a real internal service on loopback counts every
connection that reaches it; the browser tries to reach it through every path a page or the agent has, and in
every spelling of its address. The firewall holds only if the count stays 0 while the allowed site works."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from browser_pool.actions import execute_action
from browser_pool.config import BrowserConfig
from browser_pool.net import BlockedRequest, EgressPolicy
from browser_pool.observe import get_summary
from browser_pool.pool import BrowserPool
from browser_pool.sandbox import command_line
from browser_pool.session import Session
from browser_pool.webmcp import PageToolWatcher, call_tool
from tests.support.listeners import CountingListener, counting_listener, ipv6_loopback_works
from tests.support.static_server import serve_directory
from tests.support.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]


@pytest_asyncio.fixture
async def firewalled(site: str) -> AsyncIterator[tuple[Session, list[BlockedRequest]]]:
    blocked: list[BlockedRequest] = []
    pool = BrowserPool(
        BrowserConfig(max_sessions=2, warm_contexts=0, egress=EgressPolicy(allow=(site,))),
        on_egress_blocked=blocked.append,
    )
    await pool.start()
    try:
        yield await pool.acquire("ssrf"), blocked
    finally:
        await pool.stop(save_sessions=False)


async def test_the_allowed_site_works_and_its_reach_for_the_internal_service_is_refused(
    firewalled: tuple[Session, list[BlockedRequest]], site: str, internal: CountingListener
) -> None:
    session, blocked = firewalled
    opened = await execute_action(session, "navigate", {"url": f"{site}/"})
    assert opened.ok, opened.error
    assert await session.active_page.title() == "Allowed"

    result = await execute_action(session, "navigate", {"url": f"{site}/subresources"})
    assert result.ok, result.error
    # image, frame, stylesheet, script, fetch, XHR, websocket, beacon: each refused at the proxy
    mine = [b for b in blocked if b.label == "ssrf"]  # the browser's own traffic (outside sessions) is refused too
    await eventually(lambda: len([b for b in blocked if b.label == "ssrf"]) >= 6, what="the page's requests refused")
    assert internal.connections == 0
    assert all(b.port == internal.port for b in mine)
    assert result.blocked, "the action's answer says what the firewall refused"
    summary = await get_summary(session.active_page)
    assert summary.blocked_requests >= 6
    assert "Requests blocked by the network firewall" in summary.render()


async def test_navigating_to_the_internal_service_fails_with_the_reason(
    firewalled: tuple[Session, list[BlockedRequest]], internal: CountingListener
) -> None:
    session, _ = firewalled
    result = await execute_action(session, "navigate", {"url": f"{internal.url}/admin"})
    assert not result.ok
    assert "Blocked by Hive's network firewall" in result.error
    assert "loopback" in result.error
    assert "HIVE_EGRESS_ALLOW" in result.suggestion
    assert internal.connections == 0


SPELLINGS = [
    "http://127.1:{port}/",
    "http://2130706433:{port}/",
    "http://0x7f000001:{port}/",
    "http://0x7f.0.0.1:{port}/",
    "http://0177.0.0.1:{port}/",
    "http://127.000.000.001:{port}/",
    "http://localhost:{port}/",
    "http://LOCALHOST.:{port}/",
    "http://localhost.:{port}/",
    "http://app.localhost:{port}/",
    "http://[::ffff:127.0.0.1]:{port}/",
    "http://[::ffff:7f00:1]:{port}/",
    "http://user:pass@127.0.0.1:{port}/",
    "http://127.0.0.1%2f@example.com:{port}/",
    "http://0.0.0.0:{port}/",
    "http://0:{port}/",
    "https://127.0.0.1:{port}/",
]


async def test_every_spelling_of_the_internal_address_is_refused(
    firewalled: tuple[Session, list[BlockedRequest]], internal: CountingListener
) -> None:
    session, blocked = firewalled
    for spelling in SPELLINGS:
        url = spelling.format(port=internal.port)
        await execute_action(session, "navigate", {"url": url})
        await execute_action(session, "open_tab", {"url": url})
        assert internal.connections == 0, f"{url} reached the internal service"
    assert len([b for b in blocked if b.label == "ssrf"]) >= len(SPELLINGS)


async def test_open_tab_redirect_script_worker_download_and_page_tool_are_refused(
    firewalled: tuple[Session, list[BlockedRequest]], site: str, internal: CountingListener
) -> None:
    session, blocked = firewalled
    tab = await execute_action(session, "open_tab", {"url": f"{internal.url}/"})
    assert not tab.ok
    assert "network firewall" in tab.error

    redirected = await execute_action(session, "navigate", {"url": f"{site}/redirect"})
    assert not redirected.ok
    assert "network firewall" in redirected.error

    await execute_action(session, "navigate", {"url": f"{site}/"})
    fetched = await execute_action(
        session,
        "execute_js",
        {"code": f"return await fetch('{internal.url}/js').then(r => r.status).catch(e => 'refused: ' + e)"},
    )
    assert fetched.ok, fetched.error
    assert "refused" in str(fetched.data) or "403" in str(fetched.data)

    await execute_action(session, "navigate", {"url": f"{site}/worker"})
    await session.active_page.wait_for_function("document.title === 'worker ready'", timeout=10_000)

    await execute_action(session, "navigate", {"url": f"{site}/download"})
    await execute_action(session, "click", {"selector": "#get"})

    await execute_action(session, "navigate", {"url": f"{site}/tool"})
    watcher = PageToolWatcher(session.active_page)
    await watcher.start()
    called = await call_tool(session.active_page, "leak", {})
    await watcher.close()
    assert "secret" not in called.result_text

    await eventually(lambda: any(b.reason for b in blocked), what="refusals")
    assert internal.connections == 0


@pytest.mark.skipif(not ipv6_loopback_works(), reason="this machine has no IPv6 loopback")
async def test_the_ipv6_loopback_is_refused_too(firewalled: tuple[Session, list[BlockedRequest]]) -> None:
    session, _ = firewalled
    with counting_listener("::1") as internal6:
        for url in (f"http://[::1]:{internal6.port}/", f"http://[0:0:0:0:0:0:0:1]:{internal6.port}/"):
            result = await execute_action(session, "navigate", {"url": url})
            assert not result.ok
        assert internal6.connections == 0


async def test_a_rebinding_name_cannot_switch_to_an_internal_address_after_the_check() -> None:
    """The resolver answers an allowed address first and the internal one after (DNS rebinding). The proxy
    connects to the address it checked, every time, so the internal service on the same port is never reached."""
    with counting_listener("127.0.0.1") as internal, counting_listener("127.0.0.2", internal.port) as allowed:
        answers = itertools.chain(["127.0.0.2"], itertools.repeat("127.0.0.1"))

        async def rebinding(host: str, port: int) -> list[str]:
            return [next(answers)] if host == "rebind.test" else []

        pool = BrowserPool(
            BrowserConfig(
                max_sessions=1, warm_contexts=0, egress=EgressPolicy(allow=("127.0.0.2/32",), resolver=rebinding)
            )
        )
        await pool.start()
        try:
            session = await pool.acquire("rebind")
            url = f"http://rebind.test:{internal.port}/"
            first = await execute_action(session, "navigate", {"url": url})
            assert first.ok, first.error
            assert allowed.connections >= 1
            for _ in range(3):
                again = await execute_action(session, "navigate", {"url": url})
                assert not again.ok
                assert "rebind.test resolves to a loopback address" in again.error
                assert "127.0.0.1" not in again.error, "what the name resolved to is not the page's business"
            assert internal.connections == 0
        finally:
            await pool.stop(save_sessions=False)


async def test_a_name_that_does_not_resolve_is_refused() -> None:
    async def nothing(host: str, port: int) -> list[str]:
        raise OSError("no such name")

    policy = EgressPolicy(resolver=nothing)
    verdict = await policy.check("intranet.invalid", 80)
    assert not verdict.allowed
    assert "does not resolve" in verdict.reason


async def test_the_library_without_a_policy_runs_without_the_proxy(internal: CountingListener) -> None:
    """Used on its own (no egress policy), the pool makes direct connections: the worker always sets one."""
    pool = BrowserPool(BrowserConfig(max_sessions=1, warm_contexts=0))
    await pool.start()
    try:
        session = await pool.acquire("plain")
        await asyncio.wait_for(session.active_page.goto(f"{internal.url}/"), 10)
        assert internal.connections >= 1
    finally:
        await pool.stop(save_sessions=False)


async def test_a_form_page_reports_nothing_blocked_that_the_page_did_not_ask_for(tmp_path: Path) -> None:
    """Chromium asks Google what a form's fields are (autofill); that request is not the page's, and with the
    firewall refusing it every form page used to tell the model "Requests blocked by the network firewall: 2"."""
    (tmp_path / "form.html").write_text(
        "<!doctype html><title>Join</title><form><label>Email <input name=email autocomplete=email></label>"
        "<label>Name <input name=name autocomplete=name></label><input type=password name=pw><button>Join</button></form>"
    )
    with serve_directory(tmp_path) as base:
        pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=0, egress=EgressPolicy(allow=(base,))))
        await pool.start()
        try:
            session = await pool.acquire("form")
            opened = await execute_action(session, "navigate", {"url": f"{base}/form.html"})
            typed = await execute_action(session, "type", {"selector": "input[name=email]", "text": "ada@example.com"})
            assert opened.ok, opened.error
            assert typed.ok, typed.error
            assert opened.blocked == typed.blocked == []
            summary = await get_summary(session.active_page)
            assert summary.blocked_requests == 0
            assert "blocked" not in summary.render()
            # WebMCP (on by our switch) and Playwright's own switches both hold: one list of each, merged.
            switches = [a for a in command_line(pool.browser_pid) if a.startswith("--") and "-features=" in a]
            assert len(switches) == 2, switches
            assert "WebMCP" in switches[0]
            disabled = switches[1].removeprefix("--disable-features=").split(",")
            # Ours: autofill's queries, and the address bar's drop-down page that each new context would load.
            assert {"AutofillServerCommunication", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"} <= set(disabled)
            assert len(disabled) > 3, "Playwright's own were dropped"
        finally:
            await pool.stop(save_sessions=False)
