"""What a run cost, as a person sees it in the dashboard: a run on a model the price table does not know shows its
tokens and "price unknown"; after switching the conversation to a profile for gpt-4o-mini, the next run's footer
shows what OpenAI charges for the tokens the model reported, the header adds the conversation up, and Settings →
Usage lists it by day and model. On a server with a money quota, a user the server's model already cost their
daily amount is told so when they send, and nothing starts."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from genai_prices import Usage as TableUsage
from genai_prices import calc_price
from playwright.async_api import Browser, expect

from tests.factories import ConversationFactory
from tests.support.dashboard import new_conversation, sign_up
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import start_daphne
from webapp.runs.models import Run
from webapp.runs.services import model_call_record, run_finish

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]

# 10,000 fresh and 4,000 cached input tokens, 5,000 output: $0.0015 + $0.0003 + $0.003 at gpt-4o-mini's prices.
PROMPT, CACHED, COMPLETION = 14_000, 4_000, 5_000
EXPECTED = Decimal("0.0048")


async def test_a_finished_runs_footer_shows_what_it_cost(web_server: str, llm: ScriptedLLM, browser: Browser) -> None:
    llm.script(
        lambda request: Reply(content="Done.", prompt_tokens=PROMPT, cached_tokens=CACHED, completion_tokens=COMPLETION)
    )
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    await sign_up(page, web_server, "penny")

    # The server's own model here is a local one nobody priced.
    await new_conversation(page)
    await page.get_by_test_id("chat-input").fill("First question")
    await page.get_by_test_id("send-button").click()
    first = page.locator(".run[data-status=succeeded]")
    await expect(first).to_have_count(1, timeout=20_000)
    await expect(first.get_by_test_id("run-cost")).to_have_text("price unknown")
    await expect(first.get_by_test_id("run-tokens")).to_contain_text("19,000 tokens")
    conversation_url = page.url

    # A profile for gpt-4o-mini (served here by the scripted model), priced from the table.
    await page.get_by_test_id("open-settings").click()
    form = page.get_by_test_id("profile-form")
    await expect(form).to_be_visible()
    await form.locator("select[name=provider]").select_option("openai")
    await form.locator("input[name=name]").fill("Mini")
    await form.locator("input[name=base_url]").fill(llm.base_url)
    await form.locator("input[name=model]").fill("gpt-4o-mini")
    await page.get_by_test_id("profile-save").click()
    await expect(page.get_by_test_id("profile-list")).to_contain_text("Mini")

    await page.goto(conversation_url)
    # The choice is saved before the message goes, as a person's next keystrokes would give it time to be.
    async with page.expect_response(lambda r: r.request.method == "PATCH" and "/api/conversations/" in r.url) as saved:
        await page.get_by_test_id("model-select").select_option(label="Mini · gpt-4o-mini")
    assert (await saved.value).ok
    await page.get_by_test_id("chat-input").fill("Second question")
    await page.get_by_test_id("send-button").click()
    runs = page.locator(".run[data-status=succeeded]")
    await expect(runs).to_have_count(2, timeout=20_000)
    await expect(runs.nth(1).get_by_test_id("run-cost")).to_have_text("$0.0048")
    await expect(page.get_by_test_id("conversation-cost")).to_have_text("$0.0048 + 1 call price unknown")

    table = calc_price(
        TableUsage(input_tokens=PROMPT, output_tokens=COMPLETION, cache_read_tokens=CACHED),
        model_ref="gpt-4o-mini",
        provider_id="openai",
    ).total_price
    stored = await Run.objects.order_by("-pk").afirst()
    assert stored is not None
    assert stored.cost_usd == table == EXPECTED

    await page.get_by_test_id("open-settings").click()
    usage = page.get_by_test_id("usage")
    await expect(usage.locator("[data-testid=usage-row][data-model=gpt-4o-mini] td").last).to_have_text("$0.0048")
    await expect(usage.locator("[data-testid=usage-row][data-model=scripted] td").last).to_have_text("price unknown")
    await expect(usage.get_by_test_id("usage-summary")).to_contain_text(re.compile(r"30 days: \$0\.0048 \+ 1 call"))
    await expect(usage.locator("rect.usage-bar")).to_have_count(1)
    await context.close()


def _spent_on_the_server_model(username: str, cost: str) -> None:
    """A finished run of `username`'s on the server's own model whose one call cost `cost` dollars, as the worker logs
    it."""
    conversation = ConversationFactory(owner=User.objects.get(username=username), title="Earlier today")
    run = Run.objects.create(conversation=conversation, started_by=conversation.owner, status="running")
    response = {
        "content": "ok",
        "model": "scripted",
        "usage": {"prompt_tokens": 50_000, "completion_tokens": 5_000, "cached_tokens": 0},
        "cost_usd": cost,
    }
    model_call_record(run_id=run.pk, request={"model": "scripted"}, response=response, duration_ms=5)
    run_finish(run_id=run.pk, status="succeeded")


async def test_the_money_quota_is_told_in_the_composer(services_env: dict[str, str], browser: Browser) -> None:
    server, url = start_daphne({**services_env, "HIVE_QUOTA_USD_PER_DAY": "0.50"})
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = await context.new_page()
        await sign_up(page, url, "frugal")
        await sync_to_async(_spent_on_the_server_model)("frugal", "0.55")
        runs_before = await Run.objects.acount()

        await page.get_by_test_id("new-conversation").click()
        await page.get_by_test_id("chat-input").fill("One more question")
        await page.get_by_test_id("send-button").click()
        error = page.get_by_test_id("form-error")
        await expect(error).to_contain_text("has cost $0.55 for you in the last 24 hours (the limit is $0.50)")
        await expect(page.get_by_test_id("chat-input")).to_have_value("One more question")
        assert await Run.objects.acount() == runs_before, "nothing was started"
    finally:
        await context.close()
        server.stop()
