"""In the dashboard, a run that failed has a "Trace" link in its footer (it came with a later `run.updated`, not a
reload) that downloads its Playwright trace as trace.zip; a run that succeeded has none while the conversation's
"Trace every run" is off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.agents.support import calls_made, user_request
from tests.support.dashboard import new_conversation, sign_up
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory
from tests.support.traces import trace_read

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]

PAGES = Path(__file__).resolve().parents[1] / "integration" / "pages" / "workflow"


def _opens_the_page_then(end: Reply) -> Any:
    def answer(request: dict[str, Any]) -> Reply:
        if not calls_made(request):
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": user_request(request).split()[-1]}}])
        return end

    return answer


async def test_a_failed_run_offers_its_trace_for_download(
    web_server: str, llm: ScriptedLLM, browser: Browser, tmp_path: Path
) -> None:
    context = await browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    page = await context.new_page()
    with serve_directory(PAGES) as site:
        await sign_up(page, web_server, "ada")
        await new_conversation(page)
        await expect(page.get_by_test_id("toggle-trace-runs")).not_to_be_checked()

        llm.script(_opens_the_page_then(Reply(content="Opened.")))
        await page.get_by_test_id("chat-input").fill(f"Open {site}/signup.html")
        await page.get_by_test_id("send-button").click()
        runs = page.locator("section.run")
        await expect(runs.first).to_have_attribute("data-status", "succeeded", timeout=90_000)  # a cold worker

        llm.script(_opens_the_page_then(Reply(status=400, error="the model refuses")))
        await page.get_by_test_id("chat-input").fill(f"Open {site}/login.html")
        await page.get_by_test_id("send-button").click()
        await expect(runs.nth(1)).to_have_attribute("data-status", "failed", timeout=30_000)
        link = runs.nth(1).get_by_test_id("run-trace")
        await expect(link).to_be_visible(timeout=30_000)
        await expect(runs.first.get_by_test_id("run-trace")).to_have_count(0)

        async with page.expect_download() as caught:
            await link.click()
        download = await caught.value
        assert download.suggested_filename == "trace.zip"
        saved = tmp_path / "trace.zip"
        await download.save_as(saved)
        visited = [params.get("url") for method, params in trace_read(saved.read_bytes()).actions() if method == "goto"]
        assert visited == [f"{site}/login.html"]
    await context.close()
