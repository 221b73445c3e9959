"""The tabs of one session: short ids, the active tab, popups opened by pages, and what the dashboard shows of each."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.errors import TabLimitError, TabNotFoundError
from browser_pool.types import TabInfo

log = logging.getLogger(__name__)

TabChange = Literal["added", "removed", "switched", "navigated"]
TabChangeListener = Callable[[TabChange, "Tab"], None]
TabRefusedListener = Callable[[Page], None]

# One round trip for what a tab shows besides its URL; `.href` is already resolved against the document's base.
_META_JS = """() => {
  const icon = document.querySelector('link[rel~="icon" i]');
  return [document.title, icon ? icon.href : ""];
}"""
# A page that is busy (long script, pending dialog) must not stall a tab listing; it keeps its last known title.
_META_TIMEOUT_S = 0.5


def default_favicon(url: str) -> str:
    """Where a browser looks for an icon when the page names none: the origin's /favicon.ico."""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}/favicon.ico"
    return ""


@dataclass(eq=False, slots=True)
class Tab:
    id: str
    page: Page
    title: str = ""
    icon_link: str = ""

    def info(self, *, active: bool) -> TabInfo:
        url = self.page.url
        return TabInfo(
            id=self.id, title=self.title, url=url, favicon=self.icon_link or default_favicon(url), active=active
        )

    async def refresh_meta(self) -> bool:
        """Read the page's title and icon; False when the page did not answer (it keeps its last known ones)."""
        try:
            title, icon = await asyncio.wait_for(self.page.evaluate(_META_JS), _META_TIMEOUT_S)
        except (PlaywrightError, TimeoutError):
            return False
        self.title, self.icon_link = str(title), str(icon)
        return True


class TabSet:
    """Tracks every page of a context as a tab. New pages, ours or the site's popups, become the active tab.

    A session has at most `max_tabs` tabs (0: no limit): a page opening more (a `window.open` loop) gets each new one
    closed at once, and `on_refused` hears of it; opening one by hand at the limit raises `TabLimitError`.
    """

    def __init__(
        self,
        context: BrowserContext,
        on_change: TabChangeListener,
        *,
        max_tabs: int = 0,
        on_refused: TabRefusedListener | None = None,
    ) -> None:
        self._context = context
        self._on_change = on_change
        self.max_tabs = max_tabs
        self._on_refused = on_refused
        self._refused: weakref.WeakSet[Page] = weakref.WeakSet()
        self._tabs: list[Tab] = []
        self._active: Tab | None = None
        self._next_number = 1
        self._closing = False
        self._tasks = BackgroundTasks("tabs")
        context.on("page", self._on_new_page)
        for page in context.pages:
            self._adopt(page)

    @property
    def active(self) -> Tab:
        if self._active is None:
            raise TabNotFoundError("this session has no open tab right now")
        return self._active

    @property
    def all(self) -> list[Tab]:
        return list(self._tabs)

    def get(self, tab_id: str) -> Tab:
        for tab in self._tabs:
            if tab.id == tab_id:
                return tab
        known = ", ".join(t.id for t in self._tabs)
        raise TabNotFoundError(f"no tab {tab_id!r} in this session (open tabs: {known})")

    def tab_for(self, page: Page) -> Tab | None:
        return next((tab for tab in self._tabs if tab.page is page), None)

    async def describe(self) -> list[TabInfo]:
        return (await self.describe_answered())[0]

    async def describe_answered(self) -> tuple[list[TabInfo], bool]:
        """The tabs, and whether every page answered for its title (a busy one keeps its last known title)."""
        tabs = list(self._tabs)
        answered = await asyncio.gather(*(tab.refresh_meta() for tab in tabs))
        return [tab.info(active=tab is self._active) for tab in tabs], all(answered)

    @property
    def full(self) -> bool:
        return 0 < self.max_tabs <= len(self._tabs)

    async def open(self, url: str | None = None) -> TabInfo:
        if self.full:
            raise TabLimitError(
                f"this session already has {len(self._tabs)} tabs open, the most it may have; close one first"
            )
        page = await self._context.new_page()
        # The context's "page" event has normally adopted it already (or refused it: a popup took the last place).
        tab = self.tab_for(page)
        if tab is None:
            if page in self._refused or self.full:
                await self._refuse(page, report=False)
                raise TabLimitError(f"a page opened a tab meanwhile: this session already has {self.max_tabs} tabs")
            tab = self._adopt(page)
        if url:
            await page.goto(url, wait_until="domcontentloaded")
        await tab.refresh_meta()
        return tab.info(active=tab is self._active)

    async def switch(self, tab_id: str) -> TabInfo:
        tab = self.get(tab_id)
        if tab is not self._active:
            self._activate(tab)
        await self._bring_to_front(tab)
        await tab.refresh_meta()
        return tab.info(active=True)

    async def close(self, tab_id: str) -> list[TabInfo]:
        tab = self.get(tab_id)
        if len(self._tabs) == 1:
            # There is always a tab to show and act on: open the blank replacement before closing the last one.
            await self.open()
        await tab.page.close()
        self._forget(tab)
        return await self.describe()

    def urls(self) -> tuple[list[str], int]:
        """Open tab URLs in order and the active tab's position, for saving the session."""
        index = self._tabs.index(self._active) if self._active in self._tabs else 0
        return [tab.page.url for tab in self._tabs], index

    def prepare_close(self) -> None:
        """The whole context is going away: stop replacing closed tabs and reporting changes."""
        self._closing = True
        self._tasks.cancel_all()

    def _on_new_page(self, page: Page) -> None:
        if self._closing or self.tab_for(page) is not None:
            return
        if self.full:
            self._refused.add(page)
            self._tasks.spawn(self._refuse(page), "refuse-tab")
            return
        self._adopt(page)

    async def _refuse(self, page: Page, *, report: bool = True) -> None:
        try:
            await page.close()
        except PlaywrightError:
            log.debug("a refused tab was already gone")
        if report and self._on_refused is not None:
            self._on_refused(page)

    def _adopt(self, page: Page) -> Tab:
        existing = self.tab_for(page)
        if existing is not None:
            return existing
        tab = Tab(id=f"t{self._next_number}", page=page)
        self._next_number += 1
        self._tabs.append(tab)
        page.on("close", lambda _page: self._forget(tab))
        page.on("framenavigated", lambda frame: self._on_navigated(tab, frame))
        page.on("load", lambda _page: self._notify("navigated", tab))
        self._notify("added", tab)
        self._activate(tab)
        return tab

    def _activate(self, tab: Tab) -> None:
        self._active = tab
        self._notify("switched", tab)

    async def _bring_to_front(self, tab: Tab) -> None:
        try:
            await tab.page.bring_to_front()
        except PlaywrightError:
            log.debug("could not bring tab %s to front", tab.id)

    def _forget(self, tab: Tab) -> None:
        if tab not in self._tabs:
            return
        position = self._tabs.index(tab)
        self._tabs.remove(tab)
        self._notify("removed", tab)
        if tab is not self._active:
            return
        if self._tabs:
            # Like a desktop browser: the right-hand neighbour, or the left one when the last tab closed.
            neighbour = self._tabs[min(position, len(self._tabs) - 1)]
            self._activate(neighbour)
            self._tasks.spawn(self._bring_to_front(neighbour), "bring-to-front")
        else:
            self._active = None
            if not self._closing:
                # The page closed itself (window.close()) and was the last tab.
                self._tasks.spawn(self._open_replacement(), "replace-last-tab")

    async def _open_replacement(self) -> None:
        try:
            await self.open()
        except PlaywrightError:
            log.debug("could not open a replacement tab; the context is probably closing")

    def _on_navigated(self, tab: Tab, frame: Frame) -> None:
        if frame.parent_frame is None:
            self._notify("navigated", tab)

    def _notify(self, change: TabChange, tab: Tab) -> None:
        if not self._closing:
            self._on_change(change, tab)
