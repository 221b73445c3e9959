"""In the dashboard, a person saves the agent's successful run as a workflow, finds it in Settings, and replays it
with another name: the replay opens in its own conversation and finishes without the model. The owner edits a
workflow's parameters and steps, sees the new version, and schedules it."""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from playwright.async_api import Browser, Page, expect

from tests.agents.support import form_filler
from tests.factories import UserFactory
from tests.support.dashboard import sign_up
from tests.support.llm_server import ScriptedLLM
from tests.support.processes import wait_until
from tests.support.workflows import parameter, step, workflow_with
from webapp.workflows.models import WebhookDelivery

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

    await agent_run.get_by_test_id("run-save-workflow").click()
    naming = page.get_by_test_id("save-workflow-dialog")
    await naming.get_by_test_id("save-workflow-dialog-input").fill("Order a card")
    await naming.get_by_test_id("save-workflow-dialog-submit").click()
    await expect(naming).to_have_count(0)
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


def _order_card_workflow(username: str, site: str) -> int:
    """The order form, written by hand: open it, type name and email, ask for help (a needless step), submit."""
    return workflow_with(
        get_user_model().objects.get(username=username),
        "Order a card",
        [
            step("navigate", "open the order form", url=f"{site}/order.html"),
            step("type", "type the name", tag="input", role="textbox", name="Name", attributes={"id": "name"},
                 text="{{fullname}}"),
            step("type", "type the email", tag="input", role="textbox", name="Email", attributes={"id": "email"},
                 text="{{email}}"),
            step("click", "ask for help", tag="button", role="button", name="Help"),
            step("click", "send the order", tag="button", role="button", name="Submit"),
        ],
        [parameter("fullname", "Name", "Ada Lovelace"), parameter("email", "Email", "ada@example.com")],
    )  # fmt: skip


async def _settings_with_a_workflow(
    browser: Browser, web_server: str, site: str, timezone_id: str | None = None
) -> Page:
    context = await browser.new_context(viewport={"width": 1440, "height": 900}, timezone_id=timezone_id)
    page = await context.new_page()
    await sign_up(page, web_server, "ada")
    await sync_to_async(_order_card_workflow)("ada", site)
    await page.get_by_role("link", name="Settings").click()
    await expect(page.get_by_test_id("workflow-item")).to_have_count(1)
    return page


async def test_the_owner_edits_a_workflow_and_replays_the_new_version(
    web_server: str, llm: ScriptedLLM, browser: Browser, site: str
) -> None:
    page = await _settings_with_a_workflow(browser, web_server, site)
    item = page.get_by_test_id("workflow-item")
    await expect(item.get_by_test_id("workflow-summary")).to_have_text("5 steps")

    await item.get_by_test_id("workflow-edit").click()
    editor = item.get_by_test_id("workflow-editor")
    steps = editor.get_by_test_id("workflow-edit-step")
    await expect(steps).to_have_count(5)
    await expect(steps.nth(1)).to_contain_text("“Name”")
    await expect(steps.nth(1).get_by_test_id("workflow-edit-argument")).to_have_value("{{fullname}}")
    await editor.locator("[data-name=fullname]").get_by_test_id("workflow-edit-param-name").fill("member")
    await steps.nth(1).get_by_test_id("workflow-edit-intent").fill("type the member's name")
    await steps.nth(3).get_by_test_id("workflow-edit-remove").click()
    await expect(steps).to_have_count(4)

    # A refusal is shown beside Save, and the edits stay.
    await editor.locator("[data-name=email]").get_by_test_id("workflow-edit-param-name").fill("2nd email")
    await editor.get_by_test_id("workflow-edit-save").click()
    await expect(editor.get_by_test_id("workflow-edit-error")).to_contain_text("2nd email")
    await expect(steps).to_have_count(4)
    await expect(steps.nth(1).get_by_test_id("workflow-edit-intent")).to_have_value("type the member's name")

    await editor.locator("[data-name=email]").get_by_test_id("workflow-edit-param-name").fill("email")
    await editor.get_by_test_id("workflow-edit-save").click()
    await expect(editor).to_have_count(0)
    await expect(item.get_by_test_id("workflow-summary")).to_have_text("4 steps · version 2")

    await item.get_by_test_id("workflow-versions").locator("summary").click()
    versions = item.get_by_test_id("workflow-version")
    await expect(versions).to_have_count(2)
    await expect(versions.first).to_have_attribute("data-number", "2")
    changes = versions.first.get_by_test_id("workflow-version-changes")
    await expect(changes.locator(".removed")).to_contain_text(["-click: ask for help"])
    await expect(changes.locator(".added")).to_contain_text(["+type: type the member's name"])

    await expect(item.get_by_test_id("workflow-param-fullname")).to_have_count(0)
    await item.get_by_test_id("workflow-param-member").fill("Grace Hopper")
    await item.get_by_test_id("workflow-run").click()
    await expect(page).to_have_url(re.compile(r"/c/\d+$"))
    replay = page.locator("section.run").filter(has_text="Workflow replay")
    await expect(replay).to_have_attribute("data-status", "succeeded", timeout=30_000)
    actions = [await step.get_attribute("data-action") for step in await replay.get_by_test_id("step").all()]
    assert actions == ["navigate", "type", "type", "click"]
    await expect(replay.get_by_test_id("step").last).to_contain_text("name=Grace+Hopper")
    assert llm.requests == []

    await page.get_by_role("link", name="Settings").click()
    await expect(page.get_by_test_id("workflow-run-item")).to_have_attribute("data-status", "succeeded")
    await expect(page.get_by_test_id("workflow-run-item")).to_contain_text("version 2")


async def test_the_owner_schedules_a_workflow_and_deletes_the_schedule(
    web_server: str, browser: Browser, site: str
) -> None:
    page = await _settings_with_a_workflow(browser, web_server, site, timezone_id="Europe/Paris")
    schedules = page.get_by_test_id("workflow-schedule-section")
    await schedules.locator("summary").click()
    await expect(schedules.get_by_test_id("workflow-schedules")).to_have_text("Not scheduled.")
    await expect(schedules.get_by_test_id("workflow-schedule-timezone")).to_have_value("Europe/Paris")
    await schedules.get_by_test_id("workflow-schedule-cron").fill("30 9 * * 1-5")
    await schedules.get_by_test_id("workflow-schedule-param-email").fill("ops@example.com")
    await schedules.get_by_test_id("workflow-schedule-confirmations").select_option("refuse")
    await schedules.get_by_test_id("workflow-schedule-add").click()

    made = schedules.get_by_test_id("workflow-schedule")
    await expect(made).to_have_count(1)
    await expect(made).to_contain_text("30 9 * * 1-5")
    await expect(made).to_contain_text(
        "Europe/Paris · fullname=Ada Lovelace, email=ops@example.com · stops at a step that needs a yes · not run yet"
    )

    # It is kept: the page opened again lists it.
    await page.reload()
    schedules = page.get_by_test_id("workflow-schedule-section")
    await schedules.locator("summary").click()
    await expect(schedules.get_by_test_id("workflow-schedule")).to_have_count(1)
    await schedules.get_by_test_id("workflow-schedule-delete").click()
    await expect(schedules.get_by_test_id("workflow-schedule")).to_have_count(0)
    await expect(schedules.get_by_test_id("workflow-schedules")).to_have_text("Not scheduled.")
    await page.reload()
    await expect(page.get_by_test_id("workflow-schedules")).to_have_text("Not scheduled.")


class _Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the http.server name)
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


async def test_the_owner_sets_a_webhook_and_sees_each_replays_delivery(
    web_server: str, browser: Browser, site: str
) -> None:
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        page = await _settings_with_a_workflow(browser, web_server, site)
        hook = page.get_by_test_id("workflow-webhook")
        await hook.locator("summary").click()
        await expect(hook.get_by_test_id("workflow-webhook-url")).to_contain_text("No webhook")
        await expect(hook.get_by_test_id("workflow-deliveries")).to_have_text("Nothing sent yet.")
        url = f"http://127.0.0.1:{receiver.server_address[1]}/done"
        await hook.get_by_test_id("workflow-webhook-input").fill(url)
        await hook.get_by_test_id("workflow-webhook-save").click()
        await expect(hook.get_by_test_id("workflow-webhook-url")).to_have_text(
            f"When a replay ends, Hive POSTs to {url}."
        )
        await expect(hook.get_by_test_id("workflow-webhook-secret")).to_contain_text("Signing secret (shown this once")

        await page.get_by_test_id("workflow-run").click()
        await expect(page).to_have_url(re.compile(r"/c/\d+$"))
        replay = page.locator("section.run").filter(has_text="Workflow replay")
        await expect(replay).to_have_attribute("data-status", "succeeded", timeout=30_000)
        await sync_to_async(wait_until)(
            lambda: WebhookDelivery.objects.filter(status="delivered").exists(), 30, "the webhook to be delivered"
        )
        # Opened afresh (the section's list is drawn again when Settings shows; a click before that would land on
        # the old one).
        await page.goto(f"{web_server}/settings")
        hook = page.get_by_test_id("workflow-webhook")
        await hook.locator("summary").click()
        delivered = hook.get_by_test_id("workflow-delivery")
        await expect(delivered).to_have_count(1)
        await expect(delivered).to_contain_text("Delivered after 1 attempt · run ")
        await expect(hook.get_by_test_id("workflow-webhook-secret")).to_have_text("")  # never shown again
    finally:
        receiver.shutdown()
        receiver.server_close()


async def test_the_owner_adds_a_step_and_switches_a_check_and_the_replay_follows(
    web_server: str, browser: Browser, site: str
) -> None:
    page = await _settings_with_a_workflow(browser, web_server, site)
    item = page.get_by_test_id("workflow-item")
    await item.get_by_test_id("workflow-edit").click()
    editor = item.get_by_test_id("workflow-editor")
    steps = editor.get_by_test_id("workflow-edit-step")
    submit = steps.nth(4)
    await expect(submit.get_by_test_id("workflow-edit-check-navigated")).not_to_be_checked()
    await submit.get_by_test_id("workflow-edit-check-navigated").check()
    await steps.nth(3).get_by_test_id("workflow-edit-remove").click()

    await editor.get_by_test_id("workflow-edit-new-action").select_option("navigate")
    await editor.get_by_test_id("workflow-edit-add").click()
    await expect(steps).to_have_count(5)
    added = steps.nth(4)
    await expect(added).to_contain_text("(new)")
    await editor.get_by_test_id("workflow-edit-save").click()
    await expect(editor.get_by_test_id("workflow-edit-error")).to_have_text("Step 5 needs its url.")
    await added.get_by_test_id("workflow-edit-argument").fill(f"{site}/order.html")
    await added.get_by_test_id("workflow-edit-intent").fill("back to the form")
    await editor.get_by_test_id("workflow-edit-save").click()
    await expect(item.get_by_test_id("workflow-summary")).to_have_text("5 steps · version 2")

    # Kept: the editor opened again shows the check on, and the replay ends on the form the new step opened.
    await item.get_by_test_id("workflow-edit").click()
    await expect(steps.nth(3).get_by_test_id("workflow-edit-check-navigated")).to_be_checked()
    await item.get_by_test_id("workflow-edit-cancel").click()
    await item.get_by_test_id("workflow-run").click()
    replay = page.locator("section.run").filter(has_text="Workflow replay")
    await expect(replay).to_have_attribute("data-status", "succeeded", timeout=30_000)
    actions = [await step.get_attribute("data-action") for step in await replay.get_by_test_id("step").all()]
    assert actions == ["navigate", "type", "type", "click", "navigate"]
