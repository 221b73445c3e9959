from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from browser_pool.config import BrowserConfig


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """A real Chromium that drives the dashboard the way a person would."""
    config = BrowserConfig()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=config.executable_path, headless=True, args=config.args
        )
        yield browser
        await browser.close()
