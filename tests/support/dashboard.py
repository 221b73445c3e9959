"""Driving the dashboard in a real browser: the steps every end-to-end test shares."""

from __future__ import annotations

from playwright.async_api import Page, expect


async def sign_up(page: Page, base_url: str, username: str) -> None:
    await page.goto(f"{base_url}/signup")
    await page.fill("input[name=username]", username)
    await page.fill("input[name=password]", "a-long-passphrase")
    await page.click("button[type=submit]")
    await expect(page.get_by_test_id("current-user")).to_contain_text(username)
