"""Driving the dashboard in a real browser: the steps every end-to-end test shares."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import BrowserContext, Page, expect


async def sign_up(page: Page, base_url: str, username: str) -> None:
    await page.goto(f"{base_url}/signup")
    await page.fill("input[name=username]", username)
    await page.fill("input[name=password]", "a-long-passphrase")
    await page.click("button[type=submit]")
    await expect(page.get_by_test_id("current-user")).to_contain_text(username)


async def new_conversation(page: Page) -> int:
    """A new conversation opened in the dashboard; its id."""
    await page.get_by_test_id("new-conversation").click()
    await expect(page).to_have_url(re.compile(r"/c/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


async def share_with(page: Page, username: str, role: str) -> None:
    """The open conversation shared with a teammate through the share dialog, which is closed again."""
    await page.get_by_test_id("share-button").click()
    dialog = page.get_by_test_id("share-dialog")
    await dialog.get_by_test_id("share-username").fill(username)
    await dialog.get_by_test_id("share-role").select_option(role)
    await dialog.get_by_test_id("share-submit").click()
    await expect(dialog.locator(f"[data-testid=share-item][data-username={username}]")).to_have_attribute(
        "data-role", role
    )
    await dialog.get_by_test_id("share-close").click()
    await expect(dialog).to_have_count(0)


async def csrf_token(context: BrowserContext) -> str:
    return next(cookie["value"] for cookie in await context.cookies() if cookie["name"] == "csrftoken")


async def api_post(page: Page, url: str, body: dict[str, Any]) -> tuple[int, Any]:
    """POST as the page's signed-in user (session cookie and CSRF token, as the dashboard sends them)."""
    response = await page.request.post(url, data=body, headers={"X-CSRFToken": await csrf_token(page.context)})
    try:
        payload = await response.json()
    except Exception:
        payload = None
    return response.status, payload
