"""Keeps one session's pages from taking the worker from the others: a tab whose script never yields, and a session
whose pages hold too much memory.

Every `SessionLimits.check_every_s` each tab is asked for its JavaScript memory (CDP `Runtime.getHeapUsage`: the V8
heap, array buffers and what Blink keeps for scripts). The renderer answers between tasks, so the question doubles as
a liveness probe: a tab that has not answered for `busy_page_s`, while other tabs answered questions asked after its
own, is running a script that never yields (`while (1) {}`) and is closed; a tab silent for three times that is closed
whatever the others do. Comparing with the other tabs keeps a machine that is merely loaded (every renderer slow)
from costing anyone a tab. The answers added up are the session's memory; over `max_memory_mb`, the tab using
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
class Answers:
    """When the latest question that got its answer was asked, over every session of the pool: a tab still silent
    about an earlier question is stuck, not merely slow on a loaded machine (where every tab is slow alike)."""

    latest_asked: float = 0.0


@dataclass(slots=True)
class _Probe:
    started: float
    asked: float | None = None  # when the question went out, once the tab's CDP session was there
    task: asyncio.Task[tuple[int, ...] | None] | None = None

    @property
    def pending(self) -> bool:
        return self.task is not None and not self.task.done()


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
    answers: Answers = field(default_factory=Answers)
    _states: dict[str, _TabState] = field(default_factory=dict)
    _tasks: BackgroundTasks = field(default_factory=lambda: BackgroundTasks("watchdog"))

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        tabs = {tab.id: tab for tab in self.tabs.all}
        for tab_id in list(self._states):
            if tab_id not in tabs:
                state = self._states.pop(tab_id)
                if state.probe is not None and state.probe.task is not None:
                    state.probe.task.cancel()
        for tab in tabs.values():
            state = self._states.setdefault(tab.id, _TabState())
            if state.closing:
                continue
            probe = state.probe
            if probe is not None and probe.pending:
                if self._stuck(probe, now):
                    self._close(tab, state, self._busy_notice(tab))
                continue
            task = probe.task if probe is not None else None
            if task is not None and not task.cancelled() and task.exception() is None:
                state.usage = task.result() or state.usage
            state.probe = _Probe(started=now)
            state.probe.task = self._tasks.spawn(self._ask(tab, state.probe), f"probe:{tab.id}")
        self._check_memory(tabs)

    def _stuck(self, probe: _Probe, now: float) -> bool:
        """Silent for `busy_page_s` while a question asked later got its answer; or for three times that (no other
        tab answered meanwhile, or the tab's CDP session never came: attaching waits for a stuck renderer too)."""
        bound = self.limits.busy_page_s
        if not bound:
            return False
        if probe.asked is None:
            return now - probe.started > 3 * bound
        silent = now - probe.asked
        return silent > 3 * bound or (silent > bound and self.answers.latest_asked > probe.asked)

    def close(self) -> None:
        self._tasks.cancel_all()
        self._states.clear()

    async def _ask(self, tab: Tab, probe: _Probe) -> tuple[int, ...] | None:
        try:
            cdp = await self.cdp_for(tab)
            probe.asked = time.monotonic()
            usage = await cdp.send("Runtime.getHeapUsage")
        except PlaywrightError:
            return None  # the tab is closing or navigating: it answered, with nothing to count
        finally:
            if probe.asked is not None:
                self.answers.latest_asked = max(self.answers.latest_asked, probe.asked)
        return tuple(int(usage.get(key, 0)) for key in ("usedSize", "backingStorageSize", "embedderHeapUsedSize"))

    def _check_memory(self, tabs: dict[str, Tab]) -> None:
        if not self.limits.max_memory_mb:
            return
        live = {tab_id: state for tab_id, state in self._states.items() if state.usage and not state.closing}
        total = sum(sum(usage) for usage in {state.usage for state in live.values() if state.usage})
        if total <= self.limits.max_memory_mb * MB or not live:
            return
        # Tabs sharing a renderer report the same figures: of those, the newest goes (the one that grew them, likely).
        order = {tab_id: position for position, tab_id in enumerate(tabs)}
        heaviest = max(live, key=lambda tab_id: (sum(live[tab_id].usage or ()), order.get(tab_id, -1)))
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
