"""Browser profiles in the dashboard: a storage state imported in Settings is listed with its origin (a malformed
one is refused saying why, and nothing is added), and the conversation bar's picker starts the open conversation's
browser from it."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from playwright.async_api import Browser, expect

from tests.factories import ConversationFactory
from tests.support.dashboard import sign_up
from tests.support.waiting import until
from webapp.profiles.models import BrowserProfile, ProfileUse

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

STATE = {
    "cookies": [{"name": "sid", "value": "e2e-cookie", "domain": "shop.example", "path": "/", "expires": -1,
                 "httpOnly": True, "secure": True, "sameSite": "Lax"}],
    "origins": [{"origin": "https://shop.example", "localStorage": [{"name": "cart", "value": "2"}]}],
}  # fmt: skip


def _conversation_of(username: str) -> int:
    return int(ConversationFactory(owner=User.objects.get(username=username)).pk)


async def test_a_profile_imported_in_settings_is_picked_in_the_conversation_bar(
    web_server: str, browser: Browser
) -> None:
    page = await (await browser.new_context(viewport={"width": 1440, "height": 900})).new_page()
    await sign_up(page, web_server, "ada")
    await page.goto(f"{web_server}/settings")
    section = page.get_by_test_id("browser-profiles")
    await section.get_by_test_id("browser-profile-name").fill("shop")
    await section.get_by_test_id("browser-profile-content").fill('{"cookies": [{"name": "sid"}]}')
    await section.get_by_test_id("browser-profile-import").click()
    await expect(section.get_by_test_id("browser-profile-error")).to_contain_text("cookies[0].value: Field required")
    assert not await sync_to_async(BrowserProfile.objects.exists)()

    await section.get_by_test_id("browser-profile-content").fill(json.dumps(STATE))
    await section.get_by_test_id("browser-profile-import").click()
    row = section.get_by_test_id("browser-profile")
    await expect(row).to_have_count(1)
    await expect(row).to_contain_text("shop")
    await expect(row.get_by_test_id("browser-profile-origin")).to_contain_text("shop.example (1 cookie, 1 local item)")
    await expect(row).not_to_contain_text("e2e-cookie")

    conversation = await sync_to_async(_conversation_of)("ada")
    await page.goto(f"{web_server}/c/{conversation}")
    picker = page.get_by_test_id("conversation-profile")
    await expect(picker.locator("option", has_text="shop")).to_have_count(1)
    await picker.select_option(label="shop")
    await page.get_by_test_id("conversation-profile-mode").select_option("read-only")

    def chosen() -> tuple[str, bool] | None:
        use = ProfileUse.objects.select_related("profile").filter(conversation_id=conversation).first()
        return (use.profile.name, use.writes) if use else None

    async def read_only_shop() -> bool:
        return await sync_to_async(chosen)() == ("shop", False)

    await until(read_only_shop, what="the conversation to start from the profile, read-only")
