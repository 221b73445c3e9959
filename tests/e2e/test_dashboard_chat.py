"""A person signs up, chats with the agent in the dashboard, reloads, and a stranger cannot look in."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Route, expect

from tests.support.dashboard import sign_up
from tests.support.llm_server import Reply, ScriptedLLM, last_user_text

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]


async def test_sign_up_chat_stream_reload_and_privacy(web_server: str, llm: ScriptedLLM, browser: Browser) -> None:
    def answer(request: dict[str, object]) -> Reply:
        question = last_user_text(request)
        return Reply(
            content=f"Here is what I found about {question}: tall mountains.", chunk_size=4, chunk_delay_s=0.05
        )

    llm.script(answer)
    owner = await browser.new_context()
    page = await owner.new_page()
    await sign_up(page, web_server, "alice")

    await page.get_by_test_id("new-conversation").click()
    await expect(page).to_have_url(re.compile(r"/c/\d+$"))
    conversation_url = page.url
    await page.get_by_test_id("chat-input").fill("Norway")
    await page.get_by_test_id("send-button").click()

    await expect(page.locator("[data-testid=message][data-role=user]")).to_have_text(re.compile("Norway"))
    # The reply arrives in pieces: it is visible while still streaming, then complete.
    await expect(page.locator("[data-testid=message][data-streaming=true]")).to_be_visible(timeout=15_000)
    reply = page.locator("[data-testid=message][data-role=assistant]")
    await expect(reply).to_have_text(re.compile("Here is what I found about Norway: tall mountains."), timeout=15_000)
    await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"))
    # The model saw the message typed in the page.
    assert last_user_text(llm.requests[-1]) == "Norway"

    await page.reload()
    await expect(page.locator("[data-testid=message][data-role=user]")).to_have_text(re.compile("Norway"))
    await expect(reply).to_have_text(re.compile("tall mountains"))
    await expect(page.get_by_test_id("conversation-item")).to_have_count(1)

    stranger = await browser.new_context()
    other = await stranger.new_page()
    await sign_up(other, web_server, "mallory")
    await expect(other.get_by_test_id("conversation-item")).to_have_count(0)
    await other.goto(conversation_url)
    await expect(other.get_by_text("Norway")).to_have_count(0)
    api = await other.request.get(conversation_url.replace("/c/", "/api/conversations/") + "/messages/")
    assert api.status == 404
    await owner.close()
    await stranger.close()


async def test_stop_button_aborts_a_run(web_server: str, llm: ScriptedLLM, browser: Browser) -> None:
    llm.script(lambda request: Reply(content="and so on " * 300, chunk_size=5, chunk_delay_s=0.05))
    context = await browser.new_context()
    page = await context.new_page()
    await sign_up(page, web_server, "bob")
    await page.get_by_test_id("new-conversation").click()
    await page.get_by_test_id("chat-input").fill("Tell me a very long story")
    await page.get_by_test_id("send-button").click()
    await expect(page.locator("[data-testid=message][data-streaming=true]")).to_be_visible(timeout=15_000)
    await page.get_by_test_id("stop-button").click()
    await expect(page.get_by_test_id("run-status")).to_have_text(re.compile("aborted"), timeout=5_000)
    await expect(page.get_by_test_id("stop-button")).to_be_hidden()
    await context.close()


async def test_a_message_sent_while_a_new_conversation_opens_goes_into_it(
    web_server: str, llm: ScriptedLLM, browser: Browser
) -> None:
    llm.script(lambda request: Reply(content=f"Noted: {last_user_text(request)}"))
    context = await browser.new_context()
    page = await context.new_page()
    await sign_up(page, web_server, "carol")
    sent = asyncio.Event()
    created = 0

    async def slow_creation(route: Route) -> None:
        # The server takes its time making the conversation: the person has typed and sent before it is open.
        nonlocal created
        if route.request.method == "POST":
            created += 1
            await sent.wait()
        await route.continue_()

    await page.route(re.compile(r"/api/conversations/$"), slow_creation)
    await page.get_by_test_id("new-conversation").click()
    await page.get_by_test_id("chat-input").fill("First words")
    await page.get_by_test_id("send-button").click()
    sent.set()

    await expect(page).to_have_url(re.compile(r"/c/\d+$"))
    await expect(page.locator("[data-testid=message][data-role=user]")).to_have_text(re.compile("First words"))
    await expect(page.locator("[data-testid=message][data-role=assistant]")).to_have_text(re.compile("Noted"))
    await expect(page.get_by_test_id("conversation-item")).to_have_count(1)
    listed = await (await page.request.get(f"{web_server}/api/conversations/")).json()
    conversations = listed["results"] if isinstance(listed, dict) else listed
    assert created == 1
    assert len(conversations) == 1
    await context.close()
