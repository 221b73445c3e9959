"""In the dashboard, a person saves the agent's successful run as a workflow, finds it in Settings, and replays it
with another name: the replay opens in its own conversation and finishes without the model."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Browser, Dialog, expect

from tests.agents.support import form_filler
from tests.factories import UserFactory
from tests.support.dashboard import sign_up
from tests.support.llm_server import ScriptedLLM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]


async def test_saving_a_run_as_a_workflow_and_replaying_it_from_settings(
    web_server: str, llm: ScriptedLLM, browser: Browser, site: str
) -> None:
    llm.script(form_filler("native"))
    page = await (await browser.new_context(viewport={"width": 1440, "height": 900})).new_page()
    await sign_up(page, web_server, "ada")
    await page.get_by_test_id("new-conversation").click()
    await page.get_by_test_id("chat-input").fill(f"Order a flight club card at {site}/order.html for Ada Lovelace.")
    await page.get_by_test_id("send-button").click()
    agent_run = page.locator("section.run[data-status=succeeded]")
    await expect(agent_run).to_have_count(1, timeout=30_000)

    async def name_it(dialog: Dialog) -> None:
        await dialog.accept("Order a card")

    page.once("dialog", name_it)
    await agent_run.get_by_test_id("run-save-workflow").click()
    await expect(agent_run.get_by_test_id("run-saved")).to_have_text(
        "Saved as “Order a card” (parameters: name, email). Run it from Settings → Workflows."
    )
    model_calls = len(llm.requests)

    await page.get_by_role("link", name="Settings").click()
    item = page.get_by_test_id("workflow-item")
    await expect(item).to_have_count(1)
    await expect(item).to_contain_text("Order a card")
    await expect(item.get_by_test_id("workflow-param-name")).to_have_value("Ada Lovelace")

    # Shared with a teammate as a controller (they may run it with their own credentials).
    await sync_to_async(UserFactory)(username="grace")
    await item.get_by_test_id("workflow-share-user").fill("grace")
    await item.get_by_test_id("workflow-share-role").select_option("controller")
    await item.get_by_test_id("workflow-share").click()
    await expect(item.get_by_test_id("workflow-share-status")).to_have_text("Shared with grace (controller).")
    await item.get_by_test_id("workflow-param-name").fill("Grace Hopper")
    await item.get_by_test_id("workflow-run").click()

    await expect(page).to_have_url(re.compile(r"/c/\d+$"))
    replay = page.locator("section.run").filter(has_text="Workflow replay")
    await expect(replay).to_have_attribute("data-status", "succeeded", timeout=30_000)
    actions = [await step.get_attribute("data-action") for step in await replay.get_by_test_id("step").all()]
    assert actions == ["navigate", "type", "type", "click"]
    await expect(replay.get_by_test_id("run-save-workflow")).to_have_count(0)
    assert len(llm.requests) == model_calls

    # Settings shows the replay in the workflow's history, linked to its conversation.
    replay_path = page.url.removeprefix(web_server)
    await page.get_by_role("link", name="Settings").click()
    history = page.get_by_test_id("workflow-run-item")
    await expect(history).to_have_count(1)
    await expect(history).to_have_attribute("data-status", "succeeded")
    await expect(history.get_by_role("link")).to_have_attribute("href", replay_path)
