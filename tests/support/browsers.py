"""A real Chromium for tests that drive a page or the dashboard themselves (the pool launches its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

from browser_pool.config import BrowserConfig
from browser_pool.flags import launch


@asynccontextmanager
async def launch_browser() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless, launched as the pool launches it (sandboxed, unprivileged, with its switches:
    browser_pool.flags), closed on the way out."""
    async with async_playwright() as playwright:
        browser = await launch(playwright.chromium, BrowserConfig())
        try:
            yield browser
        finally:
            await browser.close()
