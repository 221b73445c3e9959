"""Two people on one conversation, each in their own browser, see who did what the same way: a conversation shared
with the teammate appears in their list at once (and leaves it when revoked), every message and every action by hand
names its author ("You" for one's own, the teammate's name and avatar for theirs), runs are numbered per
conversation, the conversation's status follows the agent rather than a mistyped address, and each person is offered
only what they may do — the owner's "What the model saw" (where a model was called) and "Save as workflow", whose
name is asked in the dashboard's own dialog with the refusal shown inside it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from tests.agents.support import act, calls_made, user_request
from tests.support.dashboard import new_conversation, share_with, sign_up
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
    # One story of two people in two browsers, each step waiting on a real worker and Chromium.
    pytest.mark.timeout(300),
]


def opener(request: dict[str, Any]) -> Reply:
    """Opens the address a message names, then says so; a message without one is answered in words."""
    asked = user_request(request)
    address = re.search(r"http://\S+", asked)
    if address and not calls_made(request):
        return act("native", "navigate", {"url": address.group(0)})
    return Reply(content="Opened it." if address else f"Noted: {asked}")


def message_by(page: Page, author: str) -> Locator:
    return page.locator(f"[data-testid=message][data-role=user][data-author={author}]")


def label_of(message: Locator) -> Locator:
    return message.locator(".msg-label")


def run_numbered(page: Page, number: int) -> Locator:
    return page.locator("section.run").filter(
        has=page.get_by_test_id("run-number").get_by_text(f"Run {number}", exact=True)
    )


async def send(page: Page, text: str) -> None:
    await page.get_by_test_id("chat-input").fill(text)
    await page.get_by_test_id("send-button").click()


async def type_address(page: Page, address: str) -> None:
    bar = page.get_by_test_id("address-bar")
    await bar.fill(address)
    await bar.press("Enter")


async def test_two_people_see_who_did_what_and_are_offered_only_what_they_may_do(
    web_server: str, llm: ScriptedLLM, browser: Browser, site: str
) -> None:
    llm.script(opener)
    owner_context = await browser.new_context(viewport={"width": 1440, "height": 900})
    mate_context = await browser.new_context(viewport={"width": 1440, "height": 900})
    ada = await owner_context.new_page()
    bob = await mate_context.new_page()
    await sign_up(ada, web_server, "ada")
    await sign_up(bob, web_server, "bob")

    # Ada shares a conversation with bob: it appears in his open list without a reload.
    conversation_id = await new_conversation(ada)
    await share_with(ada, "bob", "controller")
    shared = bob.locator(f"[data-testid=conversation-item][data-id='{conversation_id}']")
    await expect(shared).to_have_attribute("data-shared", "true", timeout=5_000)
    await expect(shared.get_by_test_id("shared-by")).to_have_text("shared by ada")
    await shared.click()
    await expect(bob.get_by_test_id("my-role")).to_have_text("Controller")

    # Ada opens a page by hand: "You" on her screen, her name and avatar on bob's — run 1 on both.
    await type_address(ada, f"{site}/order.html")
    for page, label in ((ada, "You: navigate"), (bob, "ada: navigate")):
        first = run_numbered(page, 1)
        await expect(first).to_have_attribute("data-status", "succeeded", timeout=30_000)
        await expect(first.get_by_test_id("run-label")).to_have_text(label)
        await expect(first.locator(".run-starter[data-person=ada]")).to_be_visible()

    # Each person's message names its author, the same way on both screens.
    await send(ada, "Remember the order form.")
    await expect(run_numbered(ada, 2)).to_have_attribute("data-status", "succeeded", timeout=30_000)
    await send(bob, "And the result page?")
    await expect(run_numbered(bob, 3)).to_have_attribute("data-status", "succeeded", timeout=30_000)
    for page, me, other in ((ada, "ada", "bob"), (bob, "bob", "ada")):
        await expect(label_of(message_by(page, me))).to_have_attribute("data-label", "You")
        await expect(message_by(page, me)).to_have_class(re.compile(r"\bmsg-mine\b"))
        await expect(label_of(message_by(page, other))).to_have_attribute("data-label", other)
        await expect(message_by(page, other)).to_have_class(re.compile(r"\bmsg-theirs\b"))
        await expect(message_by(page, other).locator(f".msg-avatar[data-person={other}]")).to_be_visible()
    await expect(bob.get_by_test_id("run-label").filter(has_text="You:")).to_have_count(0)

    # Only the owner is offered the owner's links, and what the model saw only where a model was called.
    await expect(run_numbered(ada, 2).get_by_test_id("run-debug")).to_be_visible()
    await expect(run_numbered(ada, 1).get_by_test_id("run-debug")).to_have_count(0)
    await expect(bob.get_by_test_id("run-debug")).to_have_count(0)
    await expect(bob.get_by_test_id("run-save-workflow")).to_have_count(0)

    # A mistyped address fails its own run, not the conversation: the list says what the agent's runs say.
    await type_address(ada, "http://no-such-host.invalid/")
    await expect(run_numbered(ada, 4)).to_have_attribute("data-status", "failed", timeout=30_000)
    for page in (ada, bob):
        item = page.locator(f"[data-testid=conversation-item][data-id='{conversation_id}']")
        await expect(item).to_have_attribute("data-status", "succeeded")

    # Saving a run that did nothing a workflow could replay: the name is asked in the dashboard's dialog, which
    # says why it was refused and stays open; Escape leaves it.
    await run_numbered(ada, 2).get_by_test_id("run-save-workflow").click()
    naming = ada.get_by_test_id("save-workflow-dialog")
    name = naming.get_by_test_id("save-workflow-dialog-input")
    await expect(name).to_be_focused()
    await naming.get_by_test_id("save-workflow-dialog-submit").click()
    await expect(naming.get_by_test_id("save-workflow-dialog-error")).to_have_text("Give the workflow a name.")
    await name.fill("Remember")
    await naming.get_by_test_id("save-workflow-dialog-submit").click()
    await expect(naming.get_by_test_id("save-workflow-dialog-error")).to_contain_text("replay")
    await expect(naming).to_be_visible()
    await ada.keyboard.press("Escape")
    await expect(naming).to_have_count(0)
    await expect(run_numbered(ada, 2).get_by_test_id("run-saved")).to_have_count(0)

    # Numbers are the conversation's own: a second conversation starts at run 1.
    await ada.get_by_test_id("new-conversation").click()
    await expect(ada).not_to_have_url(re.compile(rf"/c/{conversation_id}$"))
    await send(ada, "Hello again")
    await expect(run_numbered(ada, 1)).to_have_attribute("data-status", "succeeded", timeout=30_000)

    # Revoking takes the conversation out of bob's list at once.
    await ada.goto(f"{web_server}/c/{conversation_id}")
    await ada.get_by_test_id("share-button").click()
    dialog = ada.get_by_test_id("share-dialog")
    await dialog.locator("[data-testid=share-item][data-username=bob]").get_by_test_id("share-revoke").click()
    await expect(bob.locator(f"[data-testid=conversation-item][data-id='{conversation_id}']")).to_have_count(0)

    await owner_context.close()
    await mate_context.close()
