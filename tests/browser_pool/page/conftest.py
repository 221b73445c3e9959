"""Fixtures for the page-side tests: the fixture pages over HTTP, one Chromium per module, a fresh context per test."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page

from browser_pool.observe.bridge import install_observers
from browser_pool.types import TabInfo
from tests.support.browsers import launch_browser
from tests.support.static_server import serve_directory

PAGES = Path(__file__).parent / "pages"


class ContextTabs:
    """A minimal TabControl over one BrowserContext; like the pool's, a page's popup becomes the active tab."""

    def __init__(self, context: BrowserContext) -> None:
        self._context = context
        self._ids = (f"t{n}" for n in itertools.count(1))
        self._pages: dict[str, Page] = {}
        self._active: str | None = None
        context.on("page", self._on_page)

    def _on_page(self, page: Page) -> None:
        self._adopt(page)

    def _adopt(self, page: Page) -> str:
        for tab_id, known in self._pages.items():
            if known is page:
                return tab_id
        tab_id = next(self._ids)
        self._pages[tab_id] = page
        self._active = tab_id
        page.on("close", lambda _page: self._forget(tab_id))
        return tab_id

    def _forget(self, tab_id: str) -> None:
        self._pages.pop(tab_id, None)
        if self._active == tab_id:
            self._active = next(reversed(self._pages), None)

    @property
    def active_page(self) -> Page:
        assert self._active is not None, "no open tab"
        return self._pages[self._active]

    async def _info(self, tab_id: str) -> TabInfo:
        page = self._pages[tab_id]
        return TabInfo(id=tab_id, title=await page.title(), url=page.url, active=tab_id == self._active)

    async def list_tabs(self) -> list[TabInfo]:
        return [await self._info(tab_id) for tab_id in list(self._pages)]

    def tab_ids(self) -> list[str]:
        return list(self._pages)

    async def open_tab(self, url: str | None = None) -> TabInfo:
        page = await self._context.new_page()
        self._active = self._adopt(page)
        if url:
            await page.goto(url)
        return await self._info(self._active)

    async def switch_tab(self, tab_id: str) -> TabInfo:
        if tab_id not in self._pages:
            raise KeyError(tab_id)
        self._active = tab_id
        await self._pages[tab_id].bring_to_front()
        return await self._info(tab_id)

    async def close_tab(self, tab_id: str) -> list[TabInfo]:
        await self._pages[tab_id].close()
        return await self.list_tabs()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL of the fixture pages, served from 127.0.0.1."""
    with serve_directory(PAGES) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with launch_browser() as chromium:
        yield chromium


@pytest_asyncio.fixture(loop_scope="module")
async def tabs(browser: Browser) -> AsyncIterator[ContextTabs]:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    await install_observers(context)  # as the pool does for every context
    control = ContextTabs(context)
    await control.open_tab()
    yield control
    await context.close()


@pytest_asyncio.fixture(loop_scope="module")
async def page(tabs: ContextTabs) -> Page:
    return tabs.active_page
