"""In the dashboard, a person gives the agent a task on a web page and watches it work: each step appears with
its screenshot while the live view shows the browser, and the answer comes from the page it reached."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, expect

from tests.agents.support import form_filler
from tests.support.dashboard import new_conversation, sign_up
from tests.support.llm_server import ScriptedLLM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]


async def test_watching_the_agent_fill_and_send_a_form(
    web_server: str, llm: ScriptedLLM, browser: Browser, site: str
) -> None:
    llm.script(form_filler("native"))
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    await sign_up(page, web_server, "grace")
    await new_conversation(page)
    await page.get_by_test_id("chat-input").fill(
        f"Order a flight club card at {site}/order.html for Ada Lovelace, ada@example.com."
    )
    await page.get_by_test_id("send-button").click()

    steps = page.get_by_test_id("step")
    await expect(page.locator("[data-testid=step][data-action=navigate]")).to_be_visible(timeout=20_000)
    # The live view shows the agent's browser while it works.
    await expect(page.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)
    reply = page.locator("[data-testid=message][data-role=assistant]")
    await expect(reply).to_have_text(
        re.compile("Done: the card for Ada Lovelace goes to ada@example.com, order HX-42."), timeout=30_000
    )
    actions = [await step.get_attribute("data-action") for step in await steps.all()]
    assert [a for a in actions if a] == ["navigate", "get_elements", "type", "type", "click"]
    statuses = {await step.get_attribute("data-status") for step in await steps.all()}
    assert statuses == {"succeeded"}
    await expect(page.get_by_test_id("step-screenshot")).to_have_count(4)
    first_shot = await page.get_by_test_id("step-screenshot").first.get_attribute("src")
    assert first_shot is not None
    shot = await page.request.get(web_server + first_shot if first_shot.startswith("/") else first_shot)
    assert shot.headers["content-type"] == "image/jpeg"
    await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"))
    await context.close()
