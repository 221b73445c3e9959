"""Loads the in-page WebMCP bridge (`bridge.js`) into browser contexts and routes its change notices to watchers.

`install_bridge(context)` adds the bridge as a main-world init script, so every document of the context gets it
before the page's own scripts run, and exposes the binding through which the polyfill reports tool changes (native
WebMCP reports them over CDP instead). `probe_native_webmcp(browser)` tells whether this Chromium has WebMCP built in.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from importlib import resources
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, Route
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger(__name__)

BRIDGE_KEY = 'Symbol.for("hive.webmcp.v1")'
CHANGED_BINDING = "__hiveWebmcpChanged"


def _read_js(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


POLYFILL_SOURCE = _read_js("polyfill.js").replace("    // @include forms.js\n", _read_js("forms.js"), 1)
BRIDGE_SOURCE = _read_js("bridge.js").replace("  // @include polyfill.js\n", POLYFILL_SOURCE, 1)

# The bridge of the current document, installed on the spot when the document predates the init script (a context
# the bridge was added to late). Such a document gets Hive's side and the polyfill, but its own scripts have already
# looked for WebMCP without it.
BRIDGE_EXPRESSION = f"(window[{BRIDGE_KEY}] || {BRIDGE_SOURCE.strip().rstrip(';')})"

_installed: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
_change_listeners: weakref.WeakKeyDictionary[Page, Callable[[], None]] = weakref.WeakKeyDictionary()


async def install_bridge(context: BrowserContext) -> None:
    """Give every document of ``context`` the bridge (and the polyfill where the browser lacks WebMCP). Idempotent;
    call it before the context's pages load anything, as the pool does for each new context."""
    if context in _installed:
        return
    _installed.add(context)
    await context.expose_binding(CHANGED_BINDING, _on_changed)
    await context.add_init_script(script=BRIDGE_SOURCE)


def bridge_installed(context: BrowserContext) -> bool:
    return context in _installed


def listen_for_changes(page: Page, callback: Callable[[], None]) -> None:
    """Call ``callback`` when the polyfill in ``page`` reports a tool change. The page can call the binding too, so
    the callback must treat it as a hint to look again, never as data."""
    _change_listeners[page] = callback


def stop_listening(page: Page) -> None:
    _change_listeners.pop(page, None)


def _on_changed(source: dict[str, Any], *_args: Any) -> None:
    page = source.get("page")
    callback = _change_listeners.get(page) if isinstance(page, Page) else None
    if callback is not None:
        callback()


_PROBE_URL = "https://webmcp-probe.hive.invalid/"


async def probe_native_webmcp(browser: Browser) -> bool:
    """Whether this Chromium has WebMCP built in (`document.modelContext` in a secure page without the bridge)."""
    context = await browser.new_context()
    try:

        async def answer(route: Route) -> None:
            await route.fulfill(status=200, content_type="text/html", body="<!doctype html><title>probe</title>")

        await context.route(_PROBE_URL, answer)
        page = await context.new_page()
        await page.goto(_PROBE_URL)
        return bool(await page.evaluate("() => isSecureContext && 'modelContext' in document"))
    finally:
        await context.close()


async def log_webmcp_support(browser: Browser) -> bool | None:
    """Probe once at start-up and say plainly which WebMCP serves the pages. Returns whether it is native (None when
    the browser went away before it could tell)."""
    try:
        native = await probe_native_webmcp(browser)
    except PlaywrightError as exc:
        log.info("WebMCP: could not probe the browser's WebMCP support: %s", exc.message)
        return None
    if native:
        log.info(
            "WebMCP: Chromium %s has native document.modelContext; Hive's bridge only adds the legacy API",
            browser.version,
        )
    else:
        log.warning(
            "WebMCP: Chromium %s has no native document.modelContext (launched without --enable-features=WebMCP?); "
            "Hive's polyfill serves WebMCP pages instead",
            browser.version,
        )
    return native
