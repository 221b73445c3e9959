"""The live view and the steps are readable wherever they are watched. On a desktop the owner drags the split between
the chat and the browser (it stays where she left it after a reload), gives the browser the whole window in focus
mode (at most at the page's own size) or a window of its own, and the header says in full who has control. A step's
observation reads as the page summary, its raw text one click away. A teammate on a 390 px phone gets the chat and
the browser as two tabs, with nothing wider than the screen and no header text, label or placeholder cut off.
Screenshots of each layout are kept with the test's files; the checks measure the elements' boxes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.agents.support import form_filler
from tests.e2e.layout import assert_fits_the_window, assert_inside, assert_not_clipped, assert_placeholder_fits
from tests.support.dashboard import new_conversation, share_with, sign_up
from tests.support.llm_server import ScriptedLLM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
    # One story of two people in two browsers, each step waiting on a real worker and Chromium.
    pytest.mark.timeout(300),
]

PHONE: ViewportSize = {"width": 390, "height": 844}


async def live_width(page: Page) -> float:
    box = await page.locator("section.live").bounding_box()
    assert box is not None
    return float(box["width"])


async def picture_scale(page: Page) -> dict[str, float]:
    """How the live picture is drawn: its scale, and the largest scale its stage would allow."""
    return dict(
        await page.get_by_test_id("live-view").evaluate(
            """(canvas) => {
              const box = canvas.getBoundingClientRect();
              const stage = canvas.parentElement.getBoundingClientRect();
              return {
                scale: box.width / canvas.width,
                fits: Math.min(1, (stage.width - 2) / canvas.width, (stage.height - 2) / canvas.height),
              };
            }"""
        )
    )


async def test_the_live_view_and_the_steps_read_well_on_a_desktop_and_a_phone(
    web_server: str, llm: ScriptedLLM, browser: Browser, site: str, tmp_path: Path
) -> None:
    llm.script(form_filler("native"))
    owner_context = await browser.new_context(viewport={"width": 1440, "height": 900})
    phone_context = await browser.new_context(viewport=PHONE, has_touch=True)
    ada = await owner_context.new_page()
    bob = await phone_context.new_page()
    await sign_up(ada, web_server, "ada")
    await sign_up(bob, web_server, "bob")
    conversation_id = await new_conversation(ada)
    await share_with(ada, "bob", "controller")
    await ada.get_by_test_id("chat-input").fill(f"Order a flight club card at {site}/order.html for Ada Lovelace.")
    await ada.get_by_test_id("send-button").click()
    await expect(ada.locator("section.run[data-status=succeeded]")).to_have_count(1, timeout=40_000)
    await expect(ada.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)

    # The observation reads as the page summary; the raw text the model got is one click away.
    navigated = ada.locator("[data-testid=step][data-action=navigate]")
    await navigated.locator(".step-obs summary").click()
    readable = navigated.get_by_test_id("obs-readable")
    await expect(readable).to_contain_text(f"{site}/order.html")
    await expect(readable.locator("dt").filter(has_text=re.compile("^URL$"))).to_have_count(1)
    await expect(readable).not_to_contain_text("untrusted_page_data")
    await navigated.get_by_test_id("obs-raw-toggle").click()
    await expect(navigated.get_by_test_id("obs-raw")).to_contain_text('<untrusted_page_data source="navigate result">')
    await expect(readable).to_be_hidden()

    # The split: dragged wider, and still so after a reload (kept for this user).
    before = await live_width(ada)
    handle = ada.get_by_test_id("split-handle")
    box = await handle.bounding_box()
    assert box is not None
    await ada.mouse.move(box["x"] + box["width"] / 2, box["y"] + 300)
    await ada.mouse.down()
    await ada.mouse.move(box["x"] - 200, box["y"] + 300, steps=8)
    await ada.mouse.up()
    widened = await live_width(ada)
    assert widened == pytest.approx(before + 200, abs=12), (before, widened)
    await ada.reload()
    await expect(ada.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)
    assert await live_width(ada) == pytest.approx(widened, abs=2)
    assert await ada.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('hive.liveShare.'))") == [
        "hive.liveShare.ada"
    ]

    # On the phone: the chat and the browser are two tabs; nothing is wider than the screen or cut off.
    await bob.goto(f"{web_server}/c/{conversation_id}")
    await expect(bob.get_by_test_id("my-role")).to_have_text("Controller")
    await expect(bob.get_by_test_id("pane-chat")).to_have_attribute("aria-selected", "true")
    await expect(bob.locator("section.live")).to_be_hidden()
    await expect(bob.locator("[data-testid=step]").first).to_be_visible()
    await bob.screenshot(path=tmp_path / "phone-chat.png")
    await assert_fits_the_window(bob)
    await assert_not_clipped(bob.locator("main.chat > .chat-head"))
    await assert_placeholder_fits(bob.get_by_test_id("chat-input"))
    await assert_inside(bob, "[data-testid=step]", ".step-head > *")
    await assert_inside(bob, "section.run", ".run-head > *, .run-foot > *")

    await bob.get_by_test_id("pane-browser").click()
    await expect(bob.locator("main.chat")).to_be_hidden()
    await expect(bob.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)
    await bob.get_by_test_id("take-control").click()
    await expect(bob.get_by_test_id("hand-back")).to_be_visible()
    await expect(bob.get_by_test_id("control-status")).to_have_text("You have control")
    await bob.screenshot(path=tmp_path / "phone-browser.png")
    await assert_fits_the_window(bob)
    await assert_not_clipped(bob.get_by_test_id("live-head"))

    # While bob has control, the owner's header says so in full.
    await expect(ada.get_by_test_id("control-status")).to_contain_text("bob has control")
    await assert_not_clipped(ada.get_by_test_id("live-head"))

    # Focus mode: the browser in the whole window, drawn as large as fits but never past the page's own size.
    await ada.get_by_test_id("live-focus").click()
    await expect(ada.locator("aside.sidebar")).to_be_hidden()
    await expect(ada.locator("main.chat")).to_be_hidden()
    assert await live_width(ada) == pytest.approx(1440, abs=2)
    scale = await picture_scale(ada)
    assert scale["scale"] <= 1.0001, scale
    assert scale["scale"] == pytest.approx(scale["fits"], rel=0.02), scale
    await ada.screenshot(path=tmp_path / "focus.png")
    await assert_fits_the_window(ada)
    await assert_not_clipped(ada.get_by_test_id("live-head"))
    await ada.keyboard.press("Escape")
    await expect(ada.locator("main.chat")).to_be_visible()

    # A window of its own: the same conversation's browser, alone.
    async with owner_context.expect_page() as opened:
        await ada.get_by_test_id("live-popout").click()
    popout = await opened.value
    await expect(popout).to_have_url(re.compile(rf"/c/{conversation_id}/live$"))
    await expect(popout.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)
    await expect(popout.locator("main.chat")).to_be_hidden()
    await expect(popout.get_by_test_id("control-status")).to_contain_text("bob has control")
    await popout.close()

    await bob.get_by_test_id("hand-back").click()
    await expect(ada.get_by_test_id("control-holder")).to_have_text("")
    await owner_context.close()
    await phone_context.close()
