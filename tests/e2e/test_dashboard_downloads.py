"""In the dashboard, a file the agent's browser downloaded shows as a card under its run (name, size, type) whose link
downloads it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.agents.support import calls_made, find_index, user_request
from tests.support.dashboard import new_conversation, sign_up
from tests.support.downloads import CSV, DownloadSite, download_site
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]


@pytest.fixture
def reports() -> Iterator[DownloadSite]:
    with download_site() as served:
        yield served


def _downloads_the_csv(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    if not made:
        return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": user_request(request).split()[-1]}}])
    if len(made) == 1:
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
    if len(made) == 2:
        return Reply(tool_calls=[{"name": "click", "arguments": {"index": find_index(request, "Download CSV")}}])
    return Reply(content="The report is in the chat.")


async def test_a_downloaded_file_is_a_card_whose_link_downloads_it(
    web_server: str, llm: ScriptedLLM, browser: Browser, reports: DownloadSite, tmp_path: Path
) -> None:
    llm.script(_downloads_the_csv)
    context = await browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    page = await context.new_page()
    await sign_up(page, web_server, "ada")
    await new_conversation(page)
    await page.get_by_test_id("chat-input").fill(f"Download the CSV report from {reports.url}/")
    await page.get_by_test_id("send-button").click()

    card = page.get_by_test_id("download-card")
    await expect(card).to_have_count(1, timeout=30_000)
    await expect(card.locator(".download-card-name")).to_have_text("report.csv")
    await expect(card.locator(".download-card-meta")).to_have_text(f"{len(CSV)} B · CSV")
    async with page.expect_download() as caught:
        await card.get_by_role("link", name="Download report.csv").click()
    download = await caught.value
    assert download.suggested_filename == "report.csv"
    saved = tmp_path / "report.csv"
    await download.save_as(saved)
    assert saved.read_bytes() == CSV

    await page.reload()  # the card comes back from the files list, not only from the live event
    await expect(page.get_by_test_id("download-card")).to_have_count(1, timeout=20_000)
    await context.close()
