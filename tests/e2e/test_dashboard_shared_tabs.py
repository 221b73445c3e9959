"""Shared tabs end to end: in the dashboard, share two tabs and send — the model answers with a marker
only when it received both tabs' content; share one and the payload holds only that one; share none and no
context message is sent at all."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.support.dashboard import sign_up
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]

TRAIN = "sleeper services are coming back"
FERRY = "The ferry to the lighthouse island leaves the old harbour"


def shared_context(request: dict[str, Any]) -> str:
    return "\n".join(
        str(m.get("content"))
        for m in request["messages"]
        if str(m.get("content", "")).startswith("The user shared these browser tabs")
    )


def marker_model(request: dict[str, Any]) -> Reply:
    context = shared_context(request)
    seen = [name for name, text in (("TRAIN", TRAIN), ("FERRY", FERRY)) if text in context]
    return Reply(content=f"MARKER {'+'.join(seen) or 'NONE'}")


async def send(page: Page, text: str, expected: str) -> None:
    await page.get_by_test_id("chat-input").fill(text)
    await page.get_by_test_id("send-button").click()
    await expect(page.locator("[data-testid=message][data-role=assistant]").last).to_have_text(
        re.compile(re.escape(expected)), timeout=30_000
    )


async def test_share_two_then_one_then_none(web_server: str, llm: ScriptedLLM, browser: Browser) -> None:
    llm.script(marker_model)
    with serve_directory(Path(__file__).parents[1] / "integration" / "pages") as pages:
        context = await browser.new_context(viewport={"width": 1440, "height": 900})
        page = await context.new_page()
        await sign_up(page, web_server, "tabby")
        await page.get_by_test_id("new-conversation").click()
        await expect(page).to_have_url(re.compile(r"/c/\d+$"))

        bar = page.get_by_test_id("address-bar")
        await bar.fill(f"{pages}/article.html")
        await bar.press("Enter")
        await expect(page.locator("[data-testid=tab][data-active=true]")).to_contain_text("night train", timeout=20_000)
        # The browser takes one action at a time: let the navigation finish before opening a tab.
        await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"), timeout=20_000)
        await page.get_by_test_id("tab-new").click()
        await expect(page.get_by_test_id("tab")).to_have_count(2, timeout=20_000)
        await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"), timeout=20_000)
        await bar.fill(f"{pages}/second.html")
        await bar.press("Enter")
        await expect(page.locator("[data-testid=tab][data-active=true]")).to_contain_text("Harbour", timeout=20_000)
        await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"), timeout=20_000)

        shares = page.get_by_test_id("tab-share")
        for n in range(2):
            await shares.nth(n).click()
        for n in range(2):
            await expect(shares.nth(n)).to_have_attribute("data-state", "shared", timeout=20_000)
        await expect(page.get_by_test_id("tab-read-at")).to_have_count(2)

        await send(page, "Compare the two pages", "MARKER TRAIN+FERRY")
        assert TRAIN in shared_context(llm.requests[-1])
        assert FERRY in shared_context(llm.requests[-1])

        await shares.nth(0).click()  # stop sharing the article
        await expect(shares.nth(0)).not_to_have_attribute("data-state", "shared")
        await send(page, "And now?", "MARKER FERRY")
        assert TRAIN not in shared_context(llm.requests[-1])

        await shares.nth(1).click()
        await send(page, "Nothing shared", "MARKER NONE")
        assert shared_context(llm.requests[-1]) == ""
        assert not any(
            "The user shared these browser tabs" in str(m.get("content")) for m in llm.requests[-1]["messages"]
        )
        await context.close()
