"""The dashboard's screenshots in the README and docs/, taken from a whole running stack with demo content.

    .venv/bin/python -m tests.e2e.screenshots          # writes docs/dashboard*.png

Two people share a conversation: ada (the owner) asks the agent about Hive's demo article and bob (her teammate,
a controller) asks a follow-up; the model is the tests' scripted server, which opens the page and reads its title
from what the agent observed. Then bob takes the browser's controls while ada watches in focus mode, and bob's phone
shows the chat. Nothing leaves this machine: the stack and the model listen on loopback.

The pictures: docs/dashboard.png (the owner's desktop), docs/dashboard-observation.png (a step's observation as
it reads), docs/dashboard-focus.png (focus mode while the teammate has control), docs/dashboard-phone.png (the
teammate's phone), docs/dashboard-settings.png (Settings: a browser profile and a vault credential).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.async_api import Page, ViewportSize, expect

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import running_stack  # noqa: E402
from tests.agents.support import act, calls_made, last_observation, user_request  # noqa: E402
from tests.support.browsers import launch_browser  # noqa: E402
from tests.support.dashboard import api_post, new_conversation, share_with, sign_up  # noqa: E402
from tests.support.llm_server import Reply, ScriptedLLM  # noqa: E402

DOCS = ROOT / "docs"
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
SETTINGS: ViewportSize = {"width": 1440, "height": 1200}
FOCUS: ViewportSize = {"width": 1280, "height": 760}
PHONE: ViewportSize = {"width": 390, "height": 844}


def reader(request: dict[str, Any]) -> Reply:
    """Opens the page a message names, then answers from the title the agent observed there."""
    asked = user_request(request)
    address = re.search(r"http://\S+?(?=[\s?,]|$)", asked)
    if address and not calls_made(request):
        return act("native", "navigate", {"url": address.group(0)})
    title = re.search(r"^Title: (.+)$", last_observation(request), re.MULTILINE)
    if title:
        return Reply(
            content=f"The page is **{title.group(1)}**: a long read on night trains coming back across Europe."
        )
    return Reply(content="It is filed under *Travel · Analysis*, by the paper's transport correspondent.")


async def settle(page: Page) -> None:
    """Until the page has drawn its last frame and the fonts are in."""
    await page.evaluate("document.fonts.ready")
    await page.wait_for_timeout(600)


async def take(base_url: str) -> None:
    async with launch_browser() as browser:
        ada_context = await browser.new_context(viewport=DESKTOP)
        bob_context = await browser.new_context(viewport=PHONE, has_touch=True)
        ada, bob = await ada_context.new_page(), await bob_context.new_page()
        await sign_up(ada, base_url, "ada")
        await sign_up(bob, base_url, "bob")
        conversation = await new_conversation(ada)
        await share_with(ada, "bob", "controller")
        await ada.locator("main.chat .chat-title").click()
        await ada.locator(".chat-title-input").fill("The sleeper-train story")
        await ada.locator(".chat-title-input").press("Enter")
        await bob.goto(f"{base_url}/c/{conversation}")

        await ada.get_by_test_id("chat-input").fill(f"What is the story at {base_url}/demo/article/ about?")
        await ada.get_by_test_id("send-button").click()
        await expect(ada.locator("section.run[data-status=succeeded]")).to_have_count(1, timeout=60_000)
        await bob.get_by_test_id("chat-input").fill("Which section of the paper is it in?")
        await bob.get_by_test_id("send-button").click()
        await expect(ada.locator("section.run[data-status=succeeded]")).to_have_count(2, timeout=60_000)
        await expect(ada.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=30_000)
        await expect(ada.locator("[data-testid=message][data-role=assistant]")).to_have_count(2, timeout=30_000)
        await settle(ada)
        await ada.screenshot(path=DOCS / "dashboard.png")
        navigated = ada.locator("[data-testid=step][data-action=navigate]")
        await navigated.locator(".step-obs summary").click()
        await settle(ada)
        await navigated.screenshot(path=DOCS / "dashboard-observation.png")

        await bob.locator("[data-testid=message][data-author=ada]").evaluate("(el) => el.scrollIntoView()")
        await settle(bob)
        await bob.screenshot(path=DOCS / "dashboard-phone.png")
        await bob.get_by_test_id("pane-browser").click()
        await bob.get_by_test_id("take-control").click()
        await expect(ada.get_by_test_id("control-status")).to_contain_text("bob has control")
        await ada.set_viewport_size(FOCUS)
        await ada.get_by_test_id("live-focus").click()
        await settle(ada)
        await ada.screenshot(path=DOCS / "dashboard-focus.png")
        await bob.get_by_test_id("hand-back").click()
        await settings_page(ada, base_url)


SHOP_STATE = {
    "cookies": [{"name": "session", "value": "demo", "domain": "shop.example", "path": "/", "expires": -1,
                 "httpOnly": True, "secure": True, "sameSite": "Lax"}],
    "origins": [{"origin": "https://shop.example", "localStorage": [{"name": "cart", "value": "[]"}]}],
}  # fmt: skip


async def settings_page(ada: Page, base_url: str) -> None:
    """Settings with a day of usage, a browser profile and a vault credential: what signing in once looks like."""
    status, _ = await api_post(ada, f"{base_url}/api/profiles/", {"name": "shop", "content": json.dumps(SHOP_STATE)})
    assert status == 201, status
    credential = {"name": "github", "origins": ["https://github.com"], "username": "ada",
                  "password": "not-a-real-password", "totp_secret": "JBSWY3DPEHPK3PXP"}  # fmt: skip
    status, _ = await api_post(ada, f"{base_url}/api/vault/", credential)
    assert status == 201, status
    await ada.set_viewport_size(SETTINGS)
    await ada.goto(f"{base_url}/settings")
    await expect(ada.get_by_test_id("vault-credential")).to_have_count(1)
    await expect(ada.get_by_test_id("browser-profile")).to_have_count(1)
    # The settings scroll inside their panel: the profiles and the vault below them, brought to the top.
    await ada.get_by_test_id("browser-profiles").evaluate("(el) => el.scrollIntoView({block: 'start'})")
    await settle(ada)
    await ada.screenshot(path=DOCS / "dashboard-settings.png")


def shrink(path: Path) -> None:
    """A 256-colour palette without dithering: the dashboard's flat colours and text stay sharp, the file a third."""
    with Image.open(path) as picture:
        palette = picture.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette.save(path, optimize=True)


def main() -> None:
    llm = ScriptedLLM()
    llm.start()
    llm.script(reader)
    try:
        model = {"HIVE_LLM_BASE_URL": llm.base_url, "HIVE_LLM_MODEL": "scripted", "HIVE_LLM_TOOLS": "true"}
        with running_stack(extra_env=model) as stack:
            asyncio.run(take(stack.base_url))
    finally:
        llm.stop()
    for name in ("dashboard.png", "dashboard-observation.png", "dashboard-focus.png", "dashboard-phone.png",
                 "dashboard-settings.png"):  # fmt: skip
        shrink(DOCS / name)
        print(f"{DOCS / name}: {(DOCS / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
