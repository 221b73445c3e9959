"""Adding a model guides the user: each provider's preset ticks what its models can do, a custom server starts with
tool calling on and says when to turn it off, the embeddings model has its field, and Test connection says what came
back — the model's words, or that it answered with a tool call, so tool calling works."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Browser, Locator, expect

from tests.support.dashboard import sign_up
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CAPABILITIES = ("supports_tools", "supports_vision", "parallel_tool_calls")


async def ticked(form: Locator) -> dict[str, bool]:
    return {name: await form.locator(f"input[name={name}]").is_checked() for name in CAPABILITIES}


def tool_caller(request: dict[str, Any]) -> Reply:
    """Calls the tool it is offered, as a model with working tool calling would; answers in words otherwise."""
    tools = request.get("tools") or []
    if tools:
        return Reply(tool_calls=[{"name": tools[0]["function"]["name"], "arguments": {}}])
    return Reply(content="ok")


async def test_adding_a_model_is_guided_and_test_connection_says_what_came_back(
    web_server: str, llm: ScriptedLLM, browser: Browser
) -> None:
    page = await (await browser.new_context(viewport={"width": 1280, "height": 900})).new_page()
    await sign_up(page, web_server, "ada")
    await page.goto(f"{web_server}/settings")
    await page.get_by_test_id("profile-add").click()
    form = page.get_by_test_id("profile-form")
    provider = form.locator("select[name=provider]")
    note = form.get_by_test_id("profile-custom-note")

    await provider.select_option("openai")
    assert await ticked(form) == {"supports_tools": True, "supports_vision": True, "parallel_tool_calls": True}
    await expect(note).to_be_hidden()
    await provider.select_option("deepseek")
    assert await ticked(form) == {"supports_tools": True, "supports_vision": False, "parallel_tool_calls": False}
    await provider.select_option("ollama")
    assert await ticked(form) == {"supports_tools": False, "supports_vision": False, "parallel_tool_calls": False}
    # A custom server is asked: tool calling on, with a line on when to turn it off.
    await provider.select_option("custom")
    assert await ticked(form) == {"supports_tools": True, "supports_vision": False, "parallel_tool_calls": False}
    await expect(note).to_be_visible()
    await expect(note).to_contain_text("turn it off if Test connection says the service refused them")

    await form.locator("input[name=name]").fill("Local")
    await form.locator("input[name=base_url]").fill(llm.base_url)
    await form.locator("input[name=model]").fill("fake-1")
    await form.locator("input[name=embedding_model]").fill("embed-1")
    await form.get_by_test_id("profile-save").click()
    item = page.get_by_test_id("profile-item").filter(has_text="Local")
    await expect(item).to_have_count(1)

    llm.script(tool_caller)
    await item.get_by_test_id("profile-test").click()
    result = item.get_by_test_id("profile-test-result")
    await expect(result).to_have_attribute("data-ok", "true", timeout=20_000)
    await expect(result).to_contain_text("Connected to fake-1: it answered with a tool call — tool calling works.")

    # Without tool calling the model answers in words, and the check quotes them.
    await item.get_by_test_id("profile-edit").click()
    await form.locator("input[name=supports_tools]").uncheck()
    await expect(form.locator("input[name=embedding_model]")).to_have_value("embed-1")
    await form.get_by_test_id("profile-save").click()
    await expect(form).to_be_hidden()
    await item.get_by_test_id("profile-test").click()
    await expect(result).to_contain_text("Connected to fake-1: it answered “ok”.", timeout=20_000)
