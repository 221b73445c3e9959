"""Keeps one session's pages from taking the worker from the others: a tab whose script never yields, and a session
whose pages hold too much memory.

Every `SessionLimits.check_every_s` each tab is asked for its JavaScript memory (CDP `Runtime.getHeapUsage`: the V8
heap, array buffers and what Blink keeps for scripts). The renderer answers between tasks, so the question doubles as
a liveness probe: a tab that has not answered for `busy_page_s` is running a script that never yields
(`while (1) {}`) and is closed. The answers added up are the session's memory; over `max_memory_mb`, the tab using
the most is closed. Tabs that share a renderer report the same numbers and are counted once. Each closing is a
notice (browser_pool.notices) for the agent and the dashboard. The probes run side by side and never wait on each
other, so a stuck tab stalls neither its own session's checks nor anyone else's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.notices import SessionNotice
from browser_pool.tabs import Tab, TabSet

log = logging.getLogger(__name__)

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """What one session may take of its worker; 0 turns a limit off."""

    max_tabs: int = 20  # popups past it are closed at once
    busy_page_s: float = 10.0  # a tab that does not answer for this long is closed
    max_memory_mb: int = 1024  # the session's pages together; over it, the heaviest tab is closed
    check_every_s: float = 2.0


CdpFor = Callable[[Tab], Awaitable[CDPSession]]
CloseTab = Callable[[Tab, SessionNotice], Coroutine[Any, Any, None]]


@dataclass(slots=True)
class _Probe:
    task: asyncio.Task[tuple[int, ...] | None]
    started: float


@dataclass(slots=True)
class _TabState:
    probe: _Probe | None = None
    usage: tuple[int, ...] | None = None  # the last answer: (heap, buffers, embedder) bytes
    closing: bool = False


@dataclass(slots=True)
class PageWatchdog:
    """The checks of one session; `check()` is called by the pool's watch loop and never waits."""

    tabs: TabSet
    limits: SessionLimits
    cdp_for: CdpFor
    close_tab: CloseTab
    _states: dict[str, _TabState] = field(default_factory=dict)
    _tasks: BackgroundTasks = field(default_factory=lambda: BackgroundTasks("watchdog"))

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        tabs = {tab.id: tab for tab in self.tabs.all}
        for tab_id in list(self._states):
            if tab_id not in tabs:
                state = self._states.pop(tab_id)
                if state.probe is not None:
                    state.probe.task.cancel()
        for tab in tabs.values():
            state = self._states.setdefault(tab.id, _TabState())
            if state.closing:
                continue
            probe = state.probe
            if probe is not None and not probe.task.done():
                if self.limits.busy_page_s and now - probe.started > self.limits.busy_page_s:
                    self._close(tab, state, self._busy_notice(tab))
                continue
            if probe is not None and not probe.task.cancelled() and probe.task.exception() is None:
                state.usage = probe.task.result() or state.usage
            state.probe = _Probe(self._tasks.spawn(self._ask(tab), f"probe:{tab.id}"), now)
        self._check_memory(tabs)

    def close(self) -> None:
        self._tasks.cancel_all()
        self._states.clear()

    async def _ask(self, tab: Tab) -> tuple[int, ...] | None:
        try:
            cdp = await self.cdp_for(tab)
            usage = await cdp.send("Runtime.getHeapUsage")
        except PlaywrightError:
            return None  # the tab is closing or navigating: it answered, with nothing to count
        return tuple(int(usage.get(key, 0)) for key in ("usedSize", "backingStorageSize", "embedderHeapUsedSize"))

    def _check_memory(self, tabs: dict[str, Tab]) -> None:
        if not self.limits.max_memory_mb:
            return
        live = {tab_id: state for tab_id, state in self._states.items() if state.usage and not state.closing}
        total = sum(sum(usage) for usage in {state.usage for state in live.values() if state.usage})
        if total <= self.limits.max_memory_mb * MB or not live:
            return
        heaviest = max(live, key=lambda tab_id: sum(live[tab_id].usage or ()))
        tab = tabs[heaviest]
        used = sum(live[heaviest].usage or ()) // MB
        self._close(tab, live[heaviest], self._memory_notice(tab, total // MB, used))

    def _close(self, tab: Tab, state: _TabState, notice: SessionNotice) -> None:
        state.closing = True
        log.warning("closing tab %s: %s", tab.id, notice.text)
        self._tasks.spawn(self.close_tab(tab, notice), f"close:{tab.id}")

    def _busy_notice(self, tab: Tab) -> SessionNotice:
        return SessionNotice(
            "busy",
            f"Tab {tab.id} ({_where(tab)}) was closed: its page kept the browser busy for more than "
            f"{self.limits.busy_page_s:g} s without answering (a script that never yields).",
            tab_id=tab.id,
        )

    def _memory_notice(self, tab: Tab, total_mb: int, used_mb: int) -> SessionNotice:
        return SessionNotice(
            "memory",
            f"Tab {tab.id} ({_where(tab)}) was closed: this session's pages used {total_mb} MB, more than the "
            f"{self.limits.max_memory_mb} MB a session may use, and this tab used the most ({used_mb} MB).",
            tab_id=tab.id,
        )


def _where(tab: Tab) -> str:
    try:
        return tab.page.url[:200]
    except PlaywrightError:
        return "a page"
