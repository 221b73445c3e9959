"""A real Chromium for tests that drive a page or the dashboard themselves (the pool launches its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

from browser_pool.config import BrowserConfig
from browser_pool.flags import launch


@asynccontextmanager
async def launch_browser() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless, with the pool's switches (browser_pool.flags), closed on the way out."""
    config = BrowserConfig()
    async with async_playwright() as playwright:
        browser = await launch(
            playwright.chromium, executable_path=config.executable_path, headless=True, args=config.args
        )
        try:
            yield browser
        finally:
            await browser.close()
