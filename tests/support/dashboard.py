"""Driving the dashboard in a real browser: the steps every end-to-end test shares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, Page, async_playwright, expect

from browser_pool.config import BrowserConfig
from browser_pool.flags import launch


async def sign_up(page: Page, base_url: str, username: str) -> None:
    await page.goto(f"{base_url}/signup")
    await page.fill("input[name=username]", username)
    await page.fill("input[name=password]", "a-long-passphrase")
    await page.click("button[type=submit]")
    await expect(page.get_by_test_id("current-user")).to_contain_text(username)


@asynccontextmanager
async def launch_browser() -> AsyncIterator[Browser]:
    """A real Chromium that drives the dashboard the way a person would."""
    config = BrowserConfig()
    async with async_playwright() as playwright:
        browser = await launch(
            playwright.chromium, executable_path=config.executable_path, headless=True, args=config.args
        )
        try:
            yield browser
        finally:
            await browser.close()
