"""Discovery: each tab's WebMCP tools (imperative and declarative, in the page and its same-origin frames), kept up
to date as pages register and remove them, across navigations.

What sets a tab's list is one read of the bridge (`describe()` in the top document), so native WebMCP and the
polyfill give the same records. What prompts a read:
- native WebMCP: the browser's CDP events `WebMCP.toolsAdded` / `toolsRemoved`;
- the polyfill: its `toolchange` events, passed on through a binding (`bridge.listen_for_changes`);
- both: a frame navigating or going away (Chromium sends no toolsRemoved when a document with tools unloads).
Bursts are coalesced; `on_tools_changed(tab_id, tools)` runs only when the list really changed.

`ToolDiscovery` keeps one `PageToolWatcher` per tab and can follow a pool `Session`'s tabs by itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browser_pool.background import BackgroundTasks
from browser_pool.webmcp import bridge
from browser_pool.webmcp.cdp import CdpChannel
from browser_pool.webmcp.types import PAGE_SOURCE, FrameRef, ToolAnnotations, ToolRecord

if TYPE_CHECKING:
    from browser_pool.session import Session

log = logging.getLogger(__name__)

ToolsChangedCallback = Callable[[str, list[ToolRecord]], Awaitable[None]]
PageToolsCallback = Callable[[list[ToolRecord]], Awaitable[None]]

# Tool events come in bursts (a page registering its tools one after another); one read covers a burst.
COALESCE_S = 0.005
# A page busy in a long script must not stall discovery; the next event tries again.
READ_TIMEOUT_S = 5.0
# A page can prompt reads at will (registering and removing tools in a loop, or calling the binding): past this
# many reads a second, reads wait their turn.
MAX_READS_PER_S = 50
_RETRY_S = 0.2
_DESCRIBE = f"() => {bridge.BRIDGE_EXPRESSION}.describe()"

_watchers: weakref.WeakKeyDictionary[Page, PageToolWatcher] = weakref.WeakKeyDictionary()


def watcher_for(page: Page) -> PageToolWatcher | None:
    """The running watcher of `page`, if discovery follows it."""
    watcher = _watchers.get(page)
    return watcher if watcher is not None and not watcher.closed else None


class PageSnapshot:
    """One read of a page's tools: whether WebMCP is native here, whether the page has it at all, and the tools."""

    __slots__ = ("available", "native", "tools")

    def __init__(self, native: bool, available: bool, tools: list[ToolRecord]) -> None:
        self.native = native
        self.available = available
        self.tools = tools


async def read_tools(page: Page, *, trusted_skills: frozenset[str] = frozenset()) -> PageSnapshot:
    """Read `page`'s tools once, without watching. A SKILL source counts only when named in `trusted_skills`."""
    async with asyncio.timeout(READ_TIMEOUT_S):
        raw = json.loads(await page.evaluate(_DESCRIBE))
    tools = [_record(item, trusted_skills) for item in raw.get("tools", [])]
    if raw.get("dropped"):
        log.info("WebMCP: %s left out %d tool(s) over Hive's limits", page.url, raw["dropped"])
    return PageSnapshot(bool(raw.get("native")), bool(raw.get("available")), tools)


def _record(item: dict[str, Any], trusted_skills: frozenset[str]) -> ToolRecord:
    annotations = item.get("annotations") or {}
    frame = item.get("frame") or {}
    schema = item.get("inputSchema")
    source = str(item.get("source") or PAGE_SOURCE)
    return ToolRecord(
        name=str(item["name"]),
        title=str(item.get("title") or ""),
        description=str(item.get("description") or ""),
        # What the bridge recorded is only a claim (the page can call the same hook); a SKILL the worker did not
        # inject into this tab is shown as the page's own tool.
        source=source if source in trusted_skills else PAGE_SOURCE,
        input_schema=schema if isinstance(schema, dict) else None,
        annotations=ToolAnnotations(
            read_only_hint=bool(annotations.get("readOnlyHint")),
            untrusted_content_hint=bool(annotations.get("untrustedContentHint")),
            consequential_hint=bool(annotations.get("consequentialHint")),
        ),
        frame=FrameRef(
            path=tuple(int(i) for i in frame.get("path") or ()),
            url=str(frame.get("url") or ""),
            name=str(frame.get("name") or ""),
        ),
        declarative=bool(item.get("declarative")),
        autosubmit=bool(item.get("autosubmit")),
    )


class PageToolWatcher:
    """Keeps the tool list of one page current. `start()` it, read `tools`, `close()` it when the tab goes."""

    def __init__(self, page: Page, *, on_change: PageToolsCallback | None = None) -> None:
        self.page = page
        self._on_change = on_change
        self._tools: list[ToolRecord] = []
        self._native: bool | None = None
        self._available = False
        self._trusted_skills: set[str] = set()
        self._channel: CdpChannel | None = None
        self._tasks = BackgroundTasks("webmcp")
        self._refresher: asyncio.Task[None] | None = None
        self._dirty = False
        self._closed = False
        self._recent_reads: deque[float] = deque()
        self._retry: asyncio.TimerHandle | None = None
        self._changed = asyncio.Event()
        self._reading = asyncio.Lock()

    # -- state -----------------------------------------------------------------------------------------------

    @property
    def tools(self) -> list[ToolRecord]:
        return list(self._tools)

    @property
    def native(self) -> bool | None:
        """Whether the page's WebMCP is Chromium's own (None until the first read)."""
        return self._native

    @property
    def available(self) -> bool:
        """Whether the current document has WebMCP at all (secure contexts only: not about:blank)."""
        return self._available

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def channel(self) -> CdpChannel | None:
        return self._channel

    def expect_skill(self, skill_name: str) -> None:
        """Let tools registered under this SKILL's name show it as their source (the worker injected it)."""
        self._trusted_skills.add(skill_name)
        self._poke()

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        page = self.page
        if not bridge.bridge_installed(page.context):
            log.warning("WebMCP bridge was not installed in this context up front; installing it late")
            await bridge.install_bridge(page.context)
        _watchers[page] = self
        bridge.listen_for_changes(page, self._poke)
        page.on("framenavigated", self._on_frame)
        page.on("framedetached", self._on_frame)
        page.on("close", self._on_close)
        try:
            self._channel = await CdpChannel.open(page, self._poke)
        except PlaywrightError as exc:
            log.info("WebMCP: no CDP session for %s (%s); relying on the bridge", page.url, exc.message)
        await self.refresh()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._detach_listeners()
        await self._tasks.close()
        if self._channel is not None:
            await self._channel.close()

    def _detach_listeners(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        page = self.page
        bridge.stop_listening(page)
        if _watchers.get(page) is self:
            del _watchers[page]
        page.remove_listener("framenavigated", self._on_frame)
        page.remove_listener("framedetached", self._on_frame)
        page.remove_listener("close", self._on_close)

    def _on_close(self, _page: Page) -> None:
        self._closed = True
        self._detach_listeners()
        self._tasks.cancel_all()

    # -- reading ---------------------------------------------------------------------------------------------

    def _on_frame(self, _frame: Frame) -> None:
        self._poke()

    def _poke(self) -> None:
        if self._closed:
            return
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        self._dirty = True
        if self._refresher is None or self._refresher.done():
            self._refresher = self._tasks.spawn(self._refresh_soon(), "refresh-tools")

    async def _refresh_soon(self) -> None:
        while self._dirty and not self._closed:
            await asyncio.sleep(COALESCE_S)
            await self._throttle()
            self._dirty = False
            if not await self._read() and not self._closed:
                # Mid-navigation the old document is gone before the new one answers. Look again shortly, unless an
                # event (the new document's tools) prompts a read sooner.
                self._retry = asyncio.get_running_loop().call_later(_RETRY_S, self._poke)

    async def _throttle(self) -> None:
        now = time.monotonic()
        while self._recent_reads and now - self._recent_reads[0] > 1.0:
            self._recent_reads.popleft()
        if len(self._recent_reads) >= MAX_READS_PER_S:
            await asyncio.sleep(1.0 - (now - self._recent_reads[0]))
        self._recent_reads.append(time.monotonic())

    async def refresh(self) -> list[ToolRecord]:
        """Read the page's tools now (the list also updates by itself); returns them."""
        await self._read()
        return self.tools

    async def _read(self) -> bool:
        # One read at a time: an older read finishing after a newer one must not bring back an old list.
        async with self._reading:
            try:
                snapshot = await read_tools(self.page, trusted_skills=frozenset(self._trusted_skills))
            except (PlaywrightError, TimeoutError, ValueError) as exc:
                if self._closed or self.page.is_closed():
                    return True
                log.debug("WebMCP: reading tools of %s failed: %s", self.page.url, exc)
                return False
            await self._take(snapshot)
            return True

    async def _take(self, snapshot: PageSnapshot) -> None:
        self._native = snapshot.native
        self._available = snapshot.available
        if snapshot.tools == self._tools:
            return
        self._tools = snapshot.tools
        self._changed.set()
        self._changed = asyncio.Event()
        if self._on_change is not None and not self._closed:
            try:
                await self._on_change(self.tools)
            except Exception:
                log.exception("on_tools_changed failed for %s", self.page.url)

    async def wait_for(
        self, predicate: Callable[[list[ToolRecord]], bool], *, timeout_s: float = 5.0
    ) -> list[ToolRecord]:
        """Wait until the tool list satisfies `predicate` (tests, benchmarks, callers that just navigated)."""
        async with asyncio.timeout(timeout_s):
            while not predicate(self._tools):
                await self._changed.wait()
        return self.tools


class ToolDiscovery:
    """Tool lists for many tabs, reported through `on_tools_changed(tab_id, tools)` (e.g. published to the
    dashboard's Tool Inspector by the worker)."""

    def __init__(self, on_tools_changed: ToolsChangedCallback | None = None) -> None:
        self._on_tools_changed = on_tools_changed
        self._watchers: dict[str, PageToolWatcher] = {}
        self._tasks = BackgroundTasks("webmcp-discovery")
        self._closed = False

    async def watch(self, tab_id: str, page: Page) -> PageToolWatcher:
        existing = self._watchers.get(tab_id)
        if existing is not None and existing.page is page and not existing.closed:
            return existing
        if existing is not None:
            await existing.close()

        async def report(tools: list[ToolRecord]) -> None:
            if self._on_tools_changed is not None:
                await self._on_tools_changed(tab_id, tools)

        watcher = PageToolWatcher(page, on_change=report)
        self._watchers[tab_id] = watcher
        page.on("close", lambda _page: self._forget(tab_id, watcher))
        await watcher.start()
        return watcher

    async def unwatch(self, tab_id: str) -> None:
        watcher = self._watchers.pop(tab_id, None)
        if watcher is not None:
            await watcher.close()

    def watcher(self, tab_id: str) -> PageToolWatcher | None:
        return self._watchers.get(tab_id)

    def tools(self, tab_id: str) -> list[ToolRecord]:
        watcher = self._watchers.get(tab_id)
        return watcher.tools if watcher is not None else []

    def expect_skill(self, tab_id: str, skill_name: str) -> None:
        watcher = self._watchers.get(tab_id)
        if watcher is not None:
            watcher.expect_skill(skill_name)

    async def watch_session(self, session: Session) -> None:
        """Follow every tab of a pool session, present and future (popups included)."""
        for tab in session.tabs.all:
            await self.watch(tab.id, tab.page)

        def on_page(page: Page) -> None:
            # The session's TabSet listens first, so the page is already a tab here.
            tab = session.tabs.tab_for(page)
            if tab is not None and not self._closed:
                self._tasks.spawn(self.watch(tab.id, page), f"watch-{tab.id}")

        session.context.on("page", on_page)

    async def close(self) -> None:
        self._closed = True
        await self._tasks.close()
        watchers, self._watchers = list(self._watchers.values()), {}
        await asyncio.gather(*(watcher.close() for watcher in watchers), return_exceptions=True)

    def _forget(self, tab_id: str, watcher: PageToolWatcher) -> None:
        if self._watchers.get(tab_id) is watcher:
            del self._watchers[tab_id]
        if self._on_tools_changed is not None:
            self._tasks.spawn(self._report_closed(tab_id), f"tab-{tab_id}-closed")

    async def _report_closed(self, tab_id: str) -> None:
        if self._on_tools_changed is not None:
            await self._on_tools_changed(tab_id, [])
