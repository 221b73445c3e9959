"""One conversation's browser session: an isolated BrowserContext with its tabs, live view and input replay.

A `Session` satisfies `browser_pool.types.TabControl`, which is what actions and observation work against.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any, TypeVar

from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.downloads import DownloadCallback, DownloadLimits, DownloadMeter, SessionDownloads
from browser_pool.errors import BrowserCrashedError, SessionClosedError
from browser_pool.input import InputEvent, InputReplayer, InputTarget
from browser_pool.notices import SessionNotice, board_for, tabs_refused_text
from browser_pool.screencast import Screencast, ScreencastOptions
from browser_pool.storage import LazyStorage, StorageState
from browser_pool.tabs import Tab, TabChange, TabSet
from browser_pool.tracing import ContextTracing
from browser_pool.types import SavedSession, TabInfo
from browser_pool.watchdog import Answers, PageWatchdog, SessionLimits

log = logging.getLogger(__name__)

T = TypeVar("T")
TabsChangedCallback = Callable[[str, list[TabInfo]], Awaitable[None]]
NoticeCallback = Callable[[str, SessionNotice], Coroutine[Any, Any, None]]

# A popup is "added", "switched" and "navigated" twice within a few ms; the dashboard wants one update for it.
TABS_NOTICE_DELAY_S = 0.05
TABS_RETRY_DELAY_S = 1.0  # after a page did not answer for its title; at most TABS_META_RETRIES times in a row
TABS_META_RETRIES = 5
TABS_TOLD_LIMIT_S = 3.0  # a run's end waits at most this long for its tabs to be told
# When Playwright reports a closed target, the browser's "disconnected" event may still be on its way.
_CRASH_GRACE_S = 0.5
# A page opening tabs in a loop gets them closed one by one; they are told as one notice per this long.
REFUSED_NOTICE_DELAY_S = 0.5
# How many of each person's typed secrets a save keeps (those in the worker's memory are all masked).
SAVED_TYPED_SECRETS = 100


class Session:
    """Tabs, live view and input for one session key. Obtained from `BrowserPool.acquire`, never built by callers."""

    def __init__(
        self,
        key: str,
        context: BrowserContext,
        *,
        on_tabs_changed: TabsChangedCallback | None = None,
        screencast_options: ScreencastOptions | None = None,
        limits: SessionLimits | None = None,
        on_notice: NoticeCallback | None = None,
        answers: Answers | None = None,
        on_download: DownloadCallback | None = None,
        download_limits: DownloadLimits | None = None,
        download_meter: DownloadMeter | None = None,
        storage: LazyStorage | None = None,
    ) -> None:
        self.key = key
        self.context = context
        self.created_at = time.monotonic()
        self.last_used = self.created_at
        self.leases = 0
        # Saves carry the pages' IndexedDB too (where some sites keep a sign-in): off unless the session is kept as a
        # browser profile, since reading every database costs time and bytes at every save.
        self.keep_indexed_db = False
        # Secrets Hive typed into this session's pages, by whose runs typed them (the pool hands the same record to a
        # session it opens again under this key, and a save carries it to another worker): a page may go on showing
        # one back, so that person's later steps mask them in what they report and picture.
        self.typed_secrets: dict[str, set[str]] = {}
        # The context's storage was lent by someone else (a profile of theirs): its saves say so, and whoever saves it
        # keeps it out of what is theirs. Set by the owner of the pool, for as long as this session lives.
        self.storage_lent = False
        self.lost_reason = ""
        self._lost = asyncio.Event()
        self._closed = False
        self._on_tabs_changed = on_tabs_changed
        self._tabs_dirty = False
        self._tabs_notice: asyncio.Task[None] | None = None
        # One telling of the tabs at a time, so a slower earlier one never lands after the tabs it describes moved on.
        self._tabs_telling = asyncio.Lock()
        self._cdp_sessions: dict[str, asyncio.Future[CDPSession]] = {}
        self._tasks = BackgroundTasks(f"session:{key}")
        self.limits = limits or SessionLimits()
        self._on_notice = on_notice
        self._notices = board_for(context)
        self._refused_unreported = 0
        self._refused_notice: asyncio.Task[None] | None = None
        self.screencast = Screencast(self._screencast_target, screencast_options)
        self.input = InputReplayer(self._input_target)
        self.tracing = ContextTracing(context)
        # Saved local storage written lazily, into each origin's first document (None: nothing left to write).
        self.storage = storage
        # Last: adopting the context's existing pages already reports tab changes to the parts above.
        self.tabs = TabSet(context, self._on_tab_change, max_tabs=self.limits.max_tabs, on_refused=self._tab_refused)
        self.watchdog = PageWatchdog(
            self.tabs, self.limits, self.cdp_session, self._close_for_limit, answers=answers or Answers()
        )
        # Without a keeper, downloads stay in the browser's folder until it closes (using the library on its own).
        self.downloads = (
            SessionDownloads(
                key, context, on_download, limits=download_limits or DownloadLimits(), meter=download_meter
            )
            if on_download is not None
            else None
        )

    # -- state -----------------------------------------------------------------------------------------------

    @property
    def lost(self) -> bool:
        return self._lost.is_set()

    async def lost_within(self, seconds: float) -> bool:
        """Whether the session turns out lost within ``seconds``: an action can fail a moment before the pool
        hears that the browser died."""
        try:
            await asyncio.wait_for(self._lost.wait(), timeout=seconds)
        except TimeoutError:
            return False
        return True

    @property
    def closed(self) -> bool:
        return self._closed or self.lost

    @property
    def busy(self) -> bool:
        """Leased by a turn, or watched: either way closing it now would take something from a user."""
        return self.leases > 0 or self.screencast.subscriber_count > 0

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def ensure_usable(self) -> None:
        if self.lost:
            raise BrowserCrashedError(self.lost_reason)
        if self._closed:
            raise SessionClosedError(f"browser session {self.key!r} was closed; acquire it again to restore it")

    # -- TabControl ------------------------------------------------------------------------------------------

    @property
    def active_page(self) -> Page:
        self.ensure_usable()
        return self.tabs.active.page

    @property
    def active_tab_id(self) -> str:
        self.ensure_usable()
        return self.tabs.active.id

    async def list_tabs(self) -> list[TabInfo]:
        self.ensure_usable()
        return await self.run(self.tabs.describe())

    def tab_ids(self) -> list[str]:
        self.ensure_usable()
        return [tab.id for tab in self.tabs.all]

    async def open_tab(self, url: str | None = None) -> TabInfo:
        self.ensure_usable()
        self.touch()
        return await self.run(self.tabs.open(url))

    async def switch_tab(self, tab_id: str) -> TabInfo:
        self.ensure_usable()
        self.touch()
        return await self.run(self.tabs.switch(tab_id))

    async def close_tab(self, tab_id: str) -> list[TabInfo]:
        self.ensure_usable()
        self.touch()
        return await self.run(self.tabs.close(tab_id))

    # -- live view -------------------------------------------------------------------------------------------

    async def send_input(self, event: InputEvent) -> None:
        """Replay one live-view input into the active tab (someone using the session counts as activity)."""
        self.ensure_usable()
        self.touch()
        await self.run(self.input.replay(event))

    async def cdp_session(self, tab: Tab) -> CDPSession:
        """One CDP session per tab, shared by the screencast and input replay."""
        pending = self._cdp_sessions.get(tab.id)
        if pending is None:
            pending = asyncio.ensure_future(self.context.new_cdp_session(tab.page))
            pending.add_done_callback(partial(self._cdp_session_settled, tab.id))
            self._cdp_sessions[tab.id] = pending
        return await asyncio.shield(pending)

    def _cdp_session_settled(self, tab_id: str, pending: asyncio.Future[CDPSession]) -> None:
        # A tab closed while its session was being opened fails it after every waiter may have gone (cancelled): the
        # failure is taken here, so it is neither reported as never retrieved nor kept for the next caller.
        failed = pending.cancelled() or pending.exception() is not None
        if failed and self._cdp_sessions.get(tab_id) is pending:
            del self._cdp_sessions[tab_id]

    async def _screencast_target(self) -> tuple[str, CDPSession]:
        tab = self.tabs.active
        return tab.id, await self.cdp_session(tab)

    async def _input_target(self) -> InputTarget:
        tab = self.tabs.active
        viewport = tab.page.viewport_size
        if viewport is None:
            width, height = await tab.page.evaluate("() => [window.innerWidth, window.innerHeight]")
            viewport = {"width": width, "height": height}
        return InputTarget(cdp=await self.cdp_session(tab), width=viewport["width"], height=viewport["height"])

    # -- save, restore, close --------------------------------------------------------------------------------

    async def save(self) -> SavedSession:
        """Cookies, local storage (and IndexedDB when kept), open tabs and the secrets typed into them: enough to
        rebuild this session in a fresh context, on any worker."""
        self.ensure_usable()
        state = await self.run(self.context.storage_state(indexed_db=self.keep_indexed_db))
        urls, active_index = self.tabs.urls()
        saved: StorageState = dict(state)
        if self.storage is not None:
            saved = self.storage.merged(saved)
        typed = {who: _kept(values) for who, values in self.typed_secrets.items() if values}
        return SavedSession(
            storage_state=saved,
            tab_urls=urls,
            active_index=active_index,
            typed_secrets=typed,
            storage_lent=self.storage_lent,
        )

    async def restore_tabs(self, saved: SavedSession) -> None:
        """Reopen saved tab URLs in order (the context already carries the saved storage) and re-activate the tab."""
        urls = [url for url in saved.tab_urls if url][: self.limits.max_tabs or None]
        if not urls:
            return
        tabs = [self.tabs.active]
        for _ in urls[1:]:
            await self.tabs.open()
            tabs.append(self.tabs.active)
        await asyncio.gather(*(self._reopen(tab, url) for tab, url in zip(tabs, urls, strict=True)))
        await self.tabs.switch(tabs[min(max(saved.active_index, 0), len(tabs) - 1)].id)

    async def _reopen(self, tab: Tab, url: str) -> None:
        if url == "about:blank":
            return
        try:
            await tab.page.goto(url, wait_until="domcontentloaded")
        except PlaywrightError as exc:
            # A site that is down today must not cost the user the rest of the session; the tab keeps trying URL.
            log.info("restoring tab %s of session %s: %s", url, self.key, exc.message)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.tabs.prepare_close()
        self.watchdog.close()
        await self.screencast.close()
        await self._tasks.close()
        if self.downloads is not None:
            await self.downloads.close()
        if self._tabs_notice is not None:
            self._tabs_notice.cancel()
        try:
            await self.context.close()
        except PlaywrightError:
            log.debug("context of session %s was already gone", self.key)

    def mark_lost(self, reason: str) -> None:
        """The browser died: wake everyone waiting on this session with `BrowserCrashedError`."""
        if self.lost:
            return
        self.lost_reason = reason
        self._lost.set()
        self.tabs.prepare_close()
        self.watchdog.close()
        self.screencast.abort()
        self._tasks.cancel_all()
        if self._tabs_notice is not None:
            self._tabs_notice.cancel()

    async def run(self, awaitable: Awaitable[T]) -> T:
        """Await browser work, turning a browser crash into `BrowserCrashedError` even mid-flight."""
        self.ensure_usable()
        work = asyncio.ensure_future(awaitable)
        crash = asyncio.ensure_future(self._lost.wait())
        try:
            await asyncio.wait({work, crash}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            crash.cancel()
            if not work.done():
                work.cancel()
        if not work.done():
            raise BrowserCrashedError(self.lost_reason)
        try:
            return work.result()
        except PlaywrightError as exc:
            if await self._lost_soon(exc):
                raise BrowserCrashedError(self.lost_reason) from exc
            self.ensure_usable()  # closed under the caller: say so rather than "target closed"
            raise

    async def _lost_soon(self, error: PlaywrightError) -> bool:
        """Whether a "target closed" failure was the browser dying rather than, say, the page closing itself."""
        if self.lost:
            return True
        if self._closed or "closed" not in error.message:
            return False
        try:
            await asyncio.wait_for(self._lost.wait(), _CRASH_GRACE_S)
        except TimeoutError:
            return False
        return True

    # -- limits and notices ----------------------------------------------------------------------------------

    def tell(self, notice: SessionNotice) -> None:
        """Something the pool did to this session: kept for the agent's next action, and told to the owner now."""
        self._notices.post(notice, limit=self.limits.max_tabs)
        if self._on_notice is not None:
            self._tasks.spawn(self._on_notice(self.key, notice), f"notice:{notice.kind}")

    async def _close_for_limit(self, tab: Tab, notice: SessionNotice) -> None:
        try:
            await self.run(self.tabs.close(tab.id))
        except (PlaywrightError, SessionClosedError, BrowserCrashedError, LookupError):
            return  # gone already: with its session, or on its own
        self.tell(notice)

    def _tab_refused(self, _page: Page) -> None:
        self._refused_unreported += 1
        if self._refused_notice is None and not self.closed:
            self._refused_notice = self._tasks.spawn(self._report_refused(), "tabs-refused")

    async def _report_refused(self) -> None:
        try:
            await asyncio.sleep(REFUSED_NOTICE_DELAY_S)
            count, self._refused_unreported = self._refused_unreported, 0
            self.tell(SessionNotice("tabs", tabs_refused_text(count, self.limits.max_tabs), count=count))
        finally:
            self._refused_notice = None

    # -- tab change notices ----------------------------------------------------------------------------------

    def _on_tab_change(self, change: TabChange, tab: Tab) -> None:
        if change == "removed":
            pending = self._cdp_sessions.pop(tab.id, None)
            if pending is not None and not pending.done():
                pending.cancel()
        if change in ("switched", "removed") and self.screencast.subscriber_count:
            self._tasks.spawn(self.screencast.follow_active(), "follow-active-tab")
        self._tabs_to_tell()

    def _tabs_to_tell(self) -> None:
        if self._on_tabs_changed is None or self.closed:
            return
        self._tabs_dirty = True
        if self._tabs_notice is None:
            self._tabs_notice = self._tasks.spawn(self._publish_tabs(), "tabs-changed")

    async def _publish_tabs(self) -> None:
        retries = 0
        try:
            while self._tabs_dirty and not self.closed and self._on_tabs_changed is not None:
                await asyncio.sleep(TABS_RETRY_DELAY_S if retries else TABS_NOTICE_DELAY_S)
                if not self._tabs_dirty:
                    break  # told meanwhile, at a run's end
                answered = await self._tell_tabs()
                # A page too busy to tell its title (loading on a busy machine, a long script) is asked again a
                # moment later: no other event would bring its title once it is free.
                if not answered and retries < TABS_META_RETRIES:
                    retries += 1
                    self._tabs_dirty = True
                elif answered:
                    retries = 0
        finally:
            self._tabs_notice = None

    def typed_by(self, who: str) -> set[str]:
        """The secrets `who`'s runs typed into this session's pages (a live set: a run adds to it as it types)."""
        return self.typed_secrets.setdefault(who, set())

    async def tabs_told(self) -> None:
        """Tell the tabs as they are now, and return once told: whoever sees a run end then finds the tabs its steps
        left, not the ones before them (the notice after a page's load may still be on its way)."""
        if self._on_tabs_changed is None or self.closed or (not self._tabs_dirty and self._tabs_notice is None):
            return  # nothing changed since they were last told
        answered = False
        try:
            async with asyncio.timeout(TABS_TOLD_LIMIT_S):
                answered = await self._tell_tabs()
        except TimeoutError:
            log.info("the tabs of session %s were not told in time; they are told a moment later", self.key)
        finally:
            # Not told (a page that did not answer, the wait over, the run stopped meanwhile): the background telling
            # asks again shortly, as after any change, since this telling already took the change's mark.
            if not answered:
                self._tabs_to_tell()

    async def _tell_tabs(self) -> bool:
        """Whether every page answered for its title."""
        async with self._tabs_telling:
            self._tabs_dirty = False
            tabs, answered = await self.tabs.describe_answered()
            if self._on_tabs_changed is None or self.closed:
                return answered
            try:
                await self._on_tabs_changed(self.key, tabs)
            except Exception:
                log.exception("on_tabs_changed failed for session %s", self.key)
            return answered


def _kept(typed: set[str]) -> list[str]:
    """The typed secrets a save keeps: the longest first, up to a bound, so a session signed into day after day keeps
    its usernames and passwords rather than every one-time code; sorted, so an unchanged record saves the same."""
    return sorted(sorted(typed, key=lambda value: (-len(value), value))[:SAVED_TYPED_SECRETS])
