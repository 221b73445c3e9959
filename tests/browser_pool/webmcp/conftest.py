"""Fixtures for the WebMCP tests: the test pages over HTTP, and per module two real Chromiums, one with native WebMCP
(the pool's launch arguments) and one without (so the polyfill serves). Tests that take `mode` run on both."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from browser_pool.config import BrowserConfig
from browser_pool.flags import launch
from browser_pool.webmcp import install_bridge
from tests.support.static_server import serve_directory

PAGES = Path(__file__).parent / "pages"
MODES = ("native", "polyfill")
WEBMCP_FLAG = "--enable-features=WebMCP"


def launch_args(mode: str) -> list[str]:
    args = BrowserConfig().args
    assert WEBMCP_FLAG in args, "the pool is expected to launch Chromium with WebMCP on"
    return args if mode == "native" else [arg for arg in args if arg != WEBMCP_FLAG]


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_directory(PAGES) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browsers() -> AsyncIterator[dict[str, Browser]]:
    async with async_playwright() as playwright:
        launched: dict[str, Browser] = {}
        try:
            for mode in MODES:
                launched[mode] = await launch(playwright.chromium, BrowserConfig(), args=launch_args(mode))
            yield launched
        finally:
            for browser in launched.values():
                await browser.close()


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest_asyncio.fixture(loop_scope="module")
async def context(browsers: dict[str, Browser], mode: str) -> AsyncIterator[BrowserContext]:
    context = await browsers[mode].new_context()
    await install_bridge(context)
    yield context
    await context.close()


@pytest_asyncio.fixture(loop_scope="module")
async def page(context: BrowserContext) -> Page:
    return await context.new_page()
