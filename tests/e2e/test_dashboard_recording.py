"""In the dashboard, a finished run can be watched again: "Watch again" opens its recording, whose pictures load;
scrubbing highlights the step a picture belongs to, and a click on a step moves the recording there."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.agents.support import calls_made, find_index, user_request
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


@pytest.fixture
def pages() -> Iterator[str]:
    with serve_directory(Path(__file__).parents[1] / "integration" / "pages") as url:
        yield url


def _clicks_and_waits(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("navigate", lambda: {"url": user_request(request).split()[-1]}),
        ("get_elements", lambda: {}),
        ("click", lambda: {"index": find_index(request, "Start")}),
        ("get_elements", lambda: {}),
    ]
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}], delay_s=2.0 if len(made) == 3 else 0)
    return Reply(content="It is done.")


async def test_a_finished_run_is_watched_again_in_step_with_its_steps(
    web_server: str, llm: ScriptedLLM, browser: Browser, pages: str
) -> None:
    llm.script(_clicks_and_waits)
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    await sign_up(page, web_server, "ada")
    await new_conversation(page)  # opened before the message is sent, so the message goes to it
    await page.get_by_test_id("chat-input").fill(f"Start the job on {pages}/progress.html")
    await page.get_by_test_id("send-button").click()

    watch = page.get_by_test_id("run-watch")
    await expect(watch).to_be_visible(timeout=60_000)  # offered once the run is over
    await watch.click()
    picture = page.get_by_test_id("recording-frame")
    await expect(picture).to_be_visible()
    await expect(page.get_by_test_id("recording-caption")).to_contain_text("0:00")
    # The picture is the frame the API served (authorized, allowed by the page's content security policy).
    await page.wait_for_function("() => document.querySelector('[data-testid=recording-frame]').naturalWidth > 0")

    scrubber = page.get_by_test_id("recording-scrubber")
    last = int(await scrubber.get_attribute("max") or "0")
    assert last >= 3, "frames and the steps' pictures"
    await scrubber.fill(str(last))  # the end of the run: the step it shows is highlighted, and named under it
    steps = page.locator(".run .step")
    current = page.locator(".run .step.step-current")
    await expect(current).to_have_count(1)
    shown = await current.locator(".step-index").inner_text()
    assert int(shown) >= 3, "the end of the run is at the click or after it"
    await expect(page.get_by_test_id("recording-caption")).to_contain_text(f"Step {shown}")

    await steps.nth(2).locator(".step-index").click()  # the click: the recording moves to it
    await expect(steps.nth(2)).to_have_class(re.compile(r"\bstep-current\b"))
    await expect(page.get_by_test_id("recording-caption")).to_contain_text("Step 3")
    assert int(await scrubber.input_value()) < last
    await context.close()
