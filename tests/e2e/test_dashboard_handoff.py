"""In the dashboard, the agent asks for a person: the chat shows a card saying it needs you, with the agent's reason
and "Take control"; taking control from the card gives the person the live browser, handing back answers the card
(under their name) and the agent goes on to its answer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.agents.support import calls_made, observations, user_request
from tests.support.dashboard import new_conversation, sign_up
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]

REASON = "Type the code shown in the picture into the field; I cannot read pictures."
PAGES = Path(__file__).parents[1] / "integration" / "pages" / "handoff"


def _asks_a_person(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    if not made:
        return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": user_request(request).split()[-1]}}])
    if "ask_person" not in made:
        return Reply(tool_calls=[{"name": "ask_person", "arguments": {"reason": REASON}}])
    handed = next((text for text in observations(request) if "handed it back" in text), "")
    return Reply(content=f"Back from the person: {handed.split(' did what')[0].split()[-1] if handed else 'nobody'}.")


async def test_the_card_says_the_agent_needs_you_and_take_control_hands_you_the_browser(
    web_server: str, llm: ScriptedLLM, browser: Browser
) -> None:
    llm.script(_asks_a_person)
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    with serve_directory(PAGES) as door:
        await sign_up(page, web_server, "hedy")
        await new_conversation(page)
        await page.get_by_test_id("chat-input").fill(f"Open the members' door at {door}/captcha.html")
        await page.get_by_test_id("send-button").click()

        card = page.get_by_test_id("handoff")
        await expect(card).to_be_visible(timeout=30_000)
        await expect(card).to_contain_text("The agent needs you")
        await expect(card).to_contain_text(REASON)
        await expect(card).to_contain_text(re.compile(r"The agent waits \d"))
        await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("Waiting for you", re.I))

        await card.get_by_test_id("handoff-take-control").click()
        await expect(page.get_by_test_id("hand-back")).to_be_visible(timeout=10_000)
        await expect(page.get_by_test_id("control-holder")).to_contain_text(re.compile("you|hedy", re.I))
        await expect(card).to_have_attribute("data-status", "pending")
        await expect(card.get_by_test_id("handoff-take-control")).to_be_visible()

        await page.get_by_test_id("hand-back").click()
        await expect(card).to_have_attribute("data-status", "approved", timeout=15_000)
        await expect(card).to_contain_text("hedy handed the browser back")
        await expect(card.get_by_test_id("handoff-take-control")).to_have_count(0)
        reply = page.locator("[data-testid=message][data-role=assistant]")
        await expect(reply).to_have_text(re.compile("Back from the person: hedy."), timeout=30_000)
    await context.close()
