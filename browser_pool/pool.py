"""The worker's browser pool: one Chromium, an isolated context per session key, warm contexts, reaping, crash recovery.

Everything here runs on the caller's single long-lived asyncio loop (the worker's loop thread). Callbacks are awaited
on that loop too; they persist saves and publish tab changes, so they must not block it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Browser, BrowserContext, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.clipboard import install_clipboard
from browser_pool.config import BrowserConfig
from browser_pool.downloads import DownloadCallback, DownloadMeter
from browser_pool.errors import BrowserCrashedError, PoolError, PoolFullError, PoolNotStartedError
from browser_pool.flags import browser_pid, launch
from browser_pool.net.proxy import BlockedCallback, EgressProxy, ProxyListener, bind_context, listener_for
from browser_pool.notices import SessionNotice
from browser_pool.observe.bridge import install_observers
from browser_pool.screencast import ScreencastOptions
from browser_pool.session import NoticeCallback, Session, TabsChangedCallback
from browser_pool.storage import RestoreDesk, restore
from browser_pool.types import SavedSession
from browser_pool.watchdog import Answers
from browser_pool.webmcp import install_bridge, log_webmcp_support

log = logging.getLogger(__name__)

SessionSavedCallback = Callable[[str, SavedSession], Awaitable[None]]
# Reads a session's last save; called only when the session is not live (a live one is newer than any save).
SavedLoader = Callable[[], Awaitable[SavedSession | None]]
SessionsLostCallback = Callable[[list[str]], Awaitable[None]]

CRASH_REASON = "the browser crashed; this session will be restored from its last save on the next turn"
EVICTED_TEXT = (
    "This browser session was put away to make room on a busy worker; it comes back as it was saved when you send "
    "a message or an action."
)
# How long an acquire waits for a relaunch after a crash before telling the caller to try later.
READY_TIMEOUT_S = 30.0
_RELAUNCH_BACKOFF_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    key: str
    last_used: float  # time.monotonic() of the last acquire, release or input
    idle_s: float
    busy: bool
    leases: int
    viewers: int
    tabs: int


@dataclass(frozen=True, slots=True)
class PoolLoad:
    live_sessions: int
    capacity: int
    busy_sessions: int
    warm_contexts: int

    @property
    def free(self) -> int:
        return max(0, self.capacity - self.live_sessions)


class BrowserPool:
    """Sessions keyed by a string (the conversation id). Use `lease()` around a turn, or `acquire()`/`release()`."""

    def __init__(
        self,
        config: BrowserConfig | None = None,
        *,
        on_session_saved: SessionSavedCallback | None = None,
        on_tabs_changed: TabsChangedCallback | None = None,
        on_sessions_lost: SessionsLostCallback | None = None,
        save_on_release: bool = True,
        screencast_options: ScreencastOptions | None = None,
        reap_interval_s: float | None = None,
        on_egress_blocked: BlockedCallback | None = None,
        on_notice: NoticeCallback | None = None,
        on_download: DownloadCallback | None = None,
    ) -> None:
        self.config = config or BrowserConfig()
        self._on_notice = on_notice
        self._on_download = on_download
        self._meter: DownloadMeter | None = None
        self._desk: RestoreDesk | None = None  # answers restored sessions' requests for their saved local storage
        self._answers = Answers()  # the watchdogs of all sessions compare their tabs' silence with the others' answers
        self._egress = (
            EgressProxy(self.config.egress, on_blocked=on_egress_blocked) if self.config.egress is not None else None
        )
        self._browser_listener: ProxyListener | None = None
        self._on_session_saved = on_session_saved
        self._on_tabs_changed = on_tabs_changed
        self._on_sessions_lost = on_sessions_lost
        self._save_on_release = save_on_release
        self._screencast_options = screencast_options
        self._reap_interval_s = reap_interval_s or max(1.0, min(30.0, self.config.idle_timeout_s / 4))
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._sessions: dict[str, Session] = {}
        # The secrets typed into each key's session, kept when its session is closed and opened again (idle, evicted,
        # after a browser crash): the pages it restores may still show them.
        self._typed_secrets: dict[str, dict[str, set[str]]] = {}
        self._warm: list[BrowserContext] = []
        # How many warm contexts to keep: the configured floor, raised by demand (see BrowserConfig).
        self._warm_target = self.config.warm_contexts
        self._last_miss = 0.0
        # Weak: a key's lock lives only while someone holds or awaits it, so keys seen once do not pile up.
        self._key_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._room_lock = asyncio.Lock()
        self._opening = 0
        self._ready = asyncio.Event()
        self._stopping = False
        self._refill: asyncio.Task[None] | None = None
        self._tasks = BackgroundTasks("pool")
        self.browser_pid: int | None = None
        self.crash_count = 0

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        if self._playwright is not None:
            return
        self._stopping = False
        if self._egress is not None and self._browser_listener is None:
            self._browser_listener = await self._egress.open_listener("")
        self._playwright = await async_playwright().start()
        try:
            await self._launch()
        except BaseException:
            await self._playwright.stop()
            self._playwright = None
            raise
        self._ready.set()
        self._kick_refill()
        self._tasks.spawn(self._reap_forever(), "reaper")
        limits = self.config.limits
        if limits.check_every_s > 0 and (limits.busy_page_s or limits.max_memory_mb):
            self._tasks.spawn(self._watch_forever(), "watchdog")
        if self._browser is not None:
            self._tasks.spawn(log_webmcp_support(self._browser), "webmcp-probe")

    async def stop(self, *, save_sessions: bool = True) -> None:
        """Close every session (saving each through `on_session_saved` first, unless told not to) and the browser."""
        if self._playwright is None:
            return
        self._stopping = True
        await self._tasks.close()
        sessions, self._sessions = list(self._sessions.values()), {}
        if save_sessions:
            for session in sessions:
                await self._save_quietly(session)
        await asyncio.gather(*(session.close() for session in sessions), return_exceptions=True)
        self._warm.clear()
        if self._desk is not None:
            await self._desk.close()
            self._desk = None
        if self._browser is not None:
            with contextlib.suppress(PlaywrightError):
                await self._browser.close()
        self._browser = None
        await self._playwright.stop()
        self._playwright = None
        self._ready.clear()
        if self._egress is not None:
            await self._egress.close()
            self._browser_listener = None

    async def _launch(self) -> None:
        assert self._playwright is not None
        # Playwright makes Chromium send loopback traffic through the proxy too (it adds `<-loopback>` to the
        # bypass rules), so no address escapes the firewall; each context gets its own listener below.
        proxy = {"server": self._browser_listener.server_url} if self._browser_listener is not None else None
        browser = await launch(self._playwright.chromium, self.config, proxy=proxy)
        browser.on("disconnected", self._on_disconnected)
        self._browser = browser
        self.browser_pid = await browser_pid(browser)
        self._meter = await DownloadMeter.attach(browser) if self._on_download is not None else None
        self._desk = await RestoreDesk.attach(browser)

    # -- sessions --------------------------------------------------------------------------------------------

    async def acquire(
        self, key: str, saved: SavedSession | None = None, *, load_saved: SavedLoader | None = None
    ) -> Session:
        """The live session for ``key``, else a new one (restored from ``saved``, or what ``load_saved`` reads, when
        given). Counts as a lease.

        A live session wins over ``saved``: it is newer (and ``load_saved`` is not called). Raises `PoolFullError`
        when the worker is at capacity and every session is busy.
        """
        await self._wait_ready()
        lock = self._key_locks.get(key)
        if lock is None:
            lock = self._key_locks[key] = asyncio.Lock()
        async with lock:
            session = self._sessions.get(key)
            if session is None or session.closed:
                if saved is None and load_saved is not None:
                    saved = await load_saved()
                session = await self._open_in_room(key, saved)
            session.leases += 1
            session.touch()
            return session

    async def release(self, session: Session) -> None:
        """End one lease. With ``save_on_release`` the session is saved when its last lease ends, so a worker that
        dies later loses nothing of a finished turn."""
        session.leases = max(0, session.leases - 1)
        session.touch()
        if self._save_on_release and self._on_session_saved is not None and session.leases == 0 and not session.closed:
            await self._save_quietly(session)

    @contextlib.asynccontextmanager
    async def lease(self, key: str, saved: SavedSession | None = None) -> AsyncIterator[Session]:
        """``async with pool.lease(key, saved) as session:`` around a turn; a crash inside surfaces as
        `BrowserCrashedError` whatever Playwright call noticed it."""
        session = await self.acquire(key, saved)
        try:
            yield session
        except PlaywrightError as exc:
            if session.lost:
                raise BrowserCrashedError(session.lost_reason) from exc
            raise
        finally:
            await self.release(session)

    def get(self, key: str) -> Session | None:
        session = self._sessions.get(key)
        return session if session is not None and not session.closed else None

    async def save(self, key: str) -> SavedSession:
        """Save a live session and hand the save to `on_session_saved`."""
        session = self.get(key)
        if session is None:
            raise PoolError(f"no live browser session {key!r} on this worker")
        return await self._save(session)

    async def save_all(self) -> None:
        """Save every live session through `on_session_saved` (one that fails is logged and the rest go on)."""
        for session in list(self._sessions.values()):
            if not session.closed:
                await self._save_quietly(session)

    async def close_session(self, key: str, *, save: bool = True) -> SavedSession | None:
        """Close a session, saving it first (through `on_session_saved`) unless ``save`` is false."""
        session = self._sessions.get(key)
        if session is None:
            return None
        saved = await self._save(session) if save and not session.closed else None
        if self._sessions.get(key) is session:
            del self._sessions[key]
        await session.close()
        return saved

    async def reap_idle(self, now: float | None = None) -> list[str]:
        """Save and close sessions nobody has used for `idle_timeout_s`. Returns the reaped keys."""
        now = time.monotonic() if now is None else now
        reaped = []
        for key, session in list(self._sessions.items()):
            if session.busy or now - session.last_used < self.config.idle_timeout_s:
                continue
            try:
                await self.close_session(key)
            except Exception:
                log.exception("could not reap session %s; keeping it for the next round", key)
            else:
                reaped.append(key)
        return reaped

    @property
    def sessions(self) -> list[SessionInfo]:
        now = time.monotonic()
        return [
            SessionInfo(
                key=key,
                last_used=s.last_used,
                idle_s=now - s.last_used,
                busy=s.busy,
                leases=s.leases,
                viewers=s.screencast.subscriber_count,
                tabs=len(s.tabs.all),
            )
            for key, s in self._sessions.items()
            if not s.closed
        ]

    @property
    def load(self) -> PoolLoad:
        live = [s for s in self._sessions.values() if not s.closed]
        return PoolLoad(
            live_sessions=len(live) + self._opening,
            capacity=self.config.max_sessions,
            busy_sessions=sum(1 for s in live if s.busy),
            warm_contexts=len(self._warm),
        )

    # -- internals: opening sessions -------------------------------------------------------------------------

    async def _wait_ready(self) -> None:
        if self._playwright is None or self._stopping:
            raise PoolNotStartedError("the browser pool is not running")
        try:
            await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT_S)
        except TimeoutError:
            raise PoolError("the browser is restarting after a crash; try again in a moment") from None

    async def _open_in_room(self, key: str, saved: SavedSession | None) -> Session:
        async with self._room_lock:
            await self._make_room()
            self._opening += 1
        try:
            session = await self._open(key, saved)
        finally:
            self._opening -= 1
        self._sessions[key] = session
        return session

    async def _make_room(self) -> None:
        """Close sessions until one more fits: first those nobody uses, then those only watched (their viewers are
        told; the session comes back from its save when someone acts). A session in a turn is never closed."""
        while self.load.live_sessions >= self.config.max_sessions:
            open_sessions = [s for s in self._sessions.values() if not s.closed and s.leases == 0]
            unwatched = [s for s in open_sessions if not s.busy]
            candidates = unwatched or open_sessions
            if not candidates:
                raise PoolFullError(
                    f"all {self.config.max_sessions} browser sessions on this worker are busy; try again shortly"
                )
            victim = min(candidates, key=lambda s: s.last_used)
            if victim.busy and self._on_notice is not None:
                await self._on_notice(victim.key, SessionNotice("evicted", EVICTED_TEXT))  # its viewers are told
            try:
                await self.close_session(victim.key)
            except Exception:
                # Evicting without a save would lose the user's tabs and logins; close it unsaved only as a last resort.
                log.exception("saving evicted session %s failed; closing it unsaved", victim.key)
                await self.close_session(victim.key, save=False)

    async def _open(self, key: str, saved: SavedSession | None) -> Session:
        context = await self._take_warm()
        try:
            lazy_storage = await restore(context, saved.storage_state if saved is not None else {}, self._desk, key)
        except BaseException:
            with contextlib.suppress(PlaywrightError):
                await context.close()
            raise
        listener = listener_for(context)
        if listener is not None:
            listener.label = key  # requests this context's proxy refuses are the session's
        session = Session(
            key,
            context,
            on_tabs_changed=self._on_tabs_changed,
            screencast_options=self._screencast_options,
            limits=self.config.limits,
            on_notice=self._on_notice,
            answers=self._answers,
            on_download=self._on_download,
            download_limits=self.config.downloads,
            download_meter=self._meter,
            storage=lazy_storage,
        )
        session.typed_secrets = self._typed_secrets.setdefault(key, {})
        for who, values in (saved.typed_secrets if saved is not None else {}).items():
            session.typed_by(who).update(values)  # typed before a restart, or on another worker
        self._kick_refill()
        if saved is not None:
            try:
                await session.restore_tabs(saved)
            except BaseException:
                await session.close()
                raise
        return session

    async def _new_context(self) -> BrowserContext:
        if self._browser is None:
            raise BrowserCrashedError(CRASH_REASON)
        listener = await self._egress.open_listener("") if self._egress is not None else None
        try:
            context = await self._browser.new_context(
                viewport={"width": self.config.viewport_width, "height": self.config.viewport_height},
                proxy={"server": listener.server_url} if listener is not None else None,
            )
        except BaseException:
            if listener is not None:
                await listener.close()
            raise
        if listener is not None:
            bind_context(context, listener)
            context.on("close", lambda _context: self._tasks.spawn(listener.close(), "egress-listener-close"))
        context.set_default_timeout(self.config.action_timeout_ms)
        context.set_default_navigation_timeout(self.config.navigation_timeout_ms)
        await install_bridge(context)  # WebMCP bridge + polyfill in every document, before the page's own scripts
        await install_observers(context)  # which elements the page's scripts made clickable
        await install_clipboard(context)  # copies stay in this session: the browser's own clipboard is everyone's
        # Each context starts with its page: a renderer start is the slow part of a session (~200 ms). `new_page`
        # returns before the page's script context is up; one evaluate here waits for it, off the acquire path.
        page = context.pages[0] if context.pages else await context.new_page()
        await page.evaluate("0")
        return context

    async def _take_warm(self) -> BrowserContext:
        while self._warm:
            context = self._warm.pop(0)
            if context.pages:
                if not self._warm:
                    self._raise_warm_target()  # the last one: the next acquire would have waited
                return context
            await context.close()
        self._raise_warm_target()
        return await self._new_context()

    def _raise_warm_target(self) -> None:
        if self.config.warm_contexts == 0:  # the operator wants none kept ready
            return
        self._last_miss = time.monotonic()
        self._warm_target = min(max(1, self._warm_target * 2), self.config.warm_contexts_max)

    def _decay_warm_target(self) -> None:
        if (
            self._warm_target > self.config.warm_contexts
            and time.monotonic() - self._last_miss > self.config.warm_decay_s
        ):
            self._warm_target = max(self.config.warm_contexts, self._warm_target // 2)
            self._last_miss = time.monotonic()
            excess = self._warm[self._warm_target :]
            del self._warm[self._warm_target :]
            for context in excess:
                self._tasks.spawn(context.close(), "close-warm")

    @property
    def _warm_wanted(self) -> int:
        room = self.config.max_sessions - self.load.live_sessions
        return max(0, min(self._warm_target, room))

    def _kick_refill(self) -> None:
        if self._refill is None or self._refill.done():
            self._refill = self._tasks.spawn(self._fill_warm(), "refill-warm")

    async def _fill_warm(self) -> None:
        # Two at a time: a context's renderer start is mostly waiting, and one at a time fell behind a burst.
        while not self._stopping and self._browser is not None and len(self._warm) < self._warm_wanted:
            batch = min(2, self._warm_wanted - len(self._warm))
            made = await asyncio.gather(*(self._new_context() for _ in range(batch)), return_exceptions=True)
            self._warm.extend(context for context in made if not isinstance(context, BaseException))
            failed = [error for error in made if isinstance(error, BaseException)]
            if failed:
                if self._browser is not None and self._browser.is_connected():
                    log.warning("could not pre-create a warm context: %s", failed[0])
                return

    async def _save(self, session: Session) -> SavedSession:
        saved = await session.save()
        if self._on_session_saved is not None:
            await self._on_session_saved(session.key, saved)
        return saved

    async def _save_quietly(self, session: Session) -> None:
        try:
            await self._save(session)
        except Exception:
            log.exception("saving session %s failed", session.key)

    async def _watch_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.limits.check_every_s)
            for session in list(self._sessions.values()):
                if not session.closed:
                    session.watchdog.check()

    async def _reap_forever(self) -> None:
        while True:
            await asyncio.sleep(self._reap_interval_s)
            try:
                await self.reap_idle()
                self._decay_warm_target()
            except Exception:
                log.exception("reaping idle sessions failed")

    # -- internals: crash recovery ---------------------------------------------------------------------------

    def _on_disconnected(self, browser: Browser) -> None:
        if browser is not self._browser or self._stopping:
            return
        log.error("Chromium (pid %s) disconnected; relaunching", self.browser_pid)
        self.crash_count += 1
        self._ready.clear()
        self._browser = None
        lost = list(self._sessions)
        for session in self._sessions.values():
            session.mark_lost(CRASH_REASON)
        self._sessions.clear()
        self._warm.clear()
        if self._desk is not None:
            self._tasks.spawn(self._desk.close(), "restore-desk-close")
            self._desk = None
        self._tasks.spawn(self._recover(lost), "relaunch")

    async def _recover(self, lost: list[str]) -> None:
        for attempt in range(10_000):
            if self._stopping:
                return
            try:
                await self._launch()
                break
            except PlaywrightError:
                delay = _RELAUNCH_BACKOFF_S[min(attempt, len(_RELAUNCH_BACKOFF_S) - 1)]
                log.exception("relaunching Chromium failed; retrying in %.1f s", delay)
                await asyncio.sleep(delay)
        self._ready.set()
        self._kick_refill()
        if self._on_sessions_lost is not None and lost:
            await self._on_sessions_lost(lost)
