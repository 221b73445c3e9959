"""Two people on one conversation at once, each in their own browser: the owner shares it with a teammate as a
viewer, who sees it in their list, watches the owner's run live and who else is watching, and cannot act in it
(neither the page nor the API nor the websocket lets them); made a controller, the teammate takes over the live
browser, clicks a button on the page and hands back; revoking cuts the teammate's open page at once. A share
link opens for a signed-out teammate after they sign up."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.support.dashboard import api_post, new_conversation, share_with, sign_up
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]

# Counts the page's websockets and records how each closed, to see the revoke's 4403 and that no reconnect follows.
RECORD_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  const log = { opened: 0, closes: [] };
  window.__hiveSockets = log;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      log.opened += 1;
      this.addEventListener("close", (event) => log.closes.push({ url: this.url, code: event.code }));
    }
  };
})();
"""

# Opens a websocket of its own on the conversation, as a script in the teammate's page could, and sends what it
# is given once the server said hello; answers the `error`s it got back.
RAW_SOCKET = """
async ([conversationId, messages]) => {
  const url = `${location.origin.replace(/^http/, "ws")}/ws/conversations/${conversationId}/`;
  const ws = new WebSocket(url);
  const errors = [];
  await new Promise((resolve, reject) => {
    ws.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.type === "hello") resolve();
      if (data.type === "error") errors.push(data.detail);
    };
    ws.onclose = (event) => reject(new Error(`closed with ${event.code}`));
  });
  for (const message of messages) ws.send(JSON.stringify(message));
  const deadline = Date.now() + 5000;
  while (errors.length < messages.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  ws.onclose = null;
  ws.close();
  return errors;
}
"""


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_directory(Path(__file__).parents[1] / "integration" / "pages") as url:
        yield url


async def page_title(page: Page, base_url: str, conversation_id: int) -> str:
    """The live tab's title, read with an `execute_js` action run by hand (a controller may run actions)."""
    status, run = await api_post(
        page,
        f"{base_url}/api/conversations/{conversation_id}/actions/",
        {"action": "execute_js", "arguments": {"code": "document.title"}},
    )
    assert status == 202, run
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        response = await page.request.get(f"{base_url}/api/runs/{run['id']}/")
        run = await response.json()
        if run["status"] not in ("queued", "running", "waiting"):
            assert run["status"] == "succeeded", run
            return str(run["steps"][-1]["observation"])
        await asyncio.sleep(0.2)
    raise AssertionError(f"the execute_js action did not finish: {run}")


async def click_in_live_view(page: Page, fraction_x: float, fraction_y: float) -> None:
    """Clicks the live picture at a fraction of the remote page (the picture is contained, top centre)."""
    canvas = page.get_by_test_id("live-view")
    box = await canvas.bounding_box()
    assert box is not None
    natural_width, natural_height = await canvas.evaluate("canvas => [canvas.width, canvas.height]")
    scale = min(box["width"] / natural_width, box["height"] / natural_height)
    left = box["x"] + (box["width"] - natural_width * scale) / 2
    top = box["y"]
    await page.mouse.click(left + natural_width * scale * fraction_x, top + natural_height * scale * fraction_y)


def person(page: Page, username: str) -> Any:
    return page.locator(f"[data-testid=presence-item][data-username={username}]")


async def test_owner_shares_teammate_watches_takes_over_hands_back_and_is_revoked(
    web_server: str, llm: ScriptedLLM, browser: Browser, pages: str
) -> None:
    llm.script(
        lambda request: Reply(
            content="On the page: " + "a big blue button that says click me. " * 8, chunk_size=5, chunk_delay_s=0.05
        )
    )
    owner_context = await browser.new_context(viewport={"width": 1440, "height": 900})
    mate_context = await browser.new_context(viewport={"width": 1440, "height": 900})
    await mate_context.add_init_script(RECORD_SOCKETS)
    owner = await owner_context.new_page()
    mate = await mate_context.new_page()
    await sign_up(owner, web_server, "ada")
    await sign_up(mate, web_server, "bob")

    # The owner starts a conversation and shares it with bob as a viewer.
    conversation_id = await new_conversation(owner)
    await share_with(owner, "bob", "viewer")
    dialog = owner.get_by_test_id("share-dialog")
    bob_share = dialog.locator("[data-testid=share-item][data-username=bob]")

    # Bob finds it in his list, marked as shared by ada, and opens it as a viewer.
    await mate.reload()
    shared = mate.locator("[data-testid=conversation-item][data-shared=true]")
    await expect(shared).to_have_count(1)
    await expect(shared.get_by_test_id("shared-by")).to_have_text("shared by ada")
    await shared.click()
    await expect(mate).to_have_url(re.compile(rf"/c/{conversation_id}$"))
    await expect(mate.get_by_test_id("my-role")).to_have_text("Viewer")
    # Both see who is watching, with their roles.
    for page in (owner, mate):
        await expect(person(page, "ada")).to_have_attribute("data-role", "owner")
        await expect(person(page, "bob")).to_have_attribute("data-role", "viewer")

    # The owner opens a page in the conversation's browser by hand (the address bar): bob sees the step
    # appear and the page in the live view.
    address = owner.get_by_test_id("address-bar")
    await address.fill(f"{pages}/clicker.html")
    await address.press("Enter")
    navigated = "[data-testid=step][data-action=navigate][data-status=succeeded]"
    await expect(mate.locator(navigated)).to_be_visible(timeout=30_000)
    await expect(mate.get_by_test_id("tab")).to_have_attribute("title", re.compile("Clicker"))
    await expect(mate.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true", timeout=20_000)

    # A viewer is offered nothing to act with.
    for testid in (
        "chat-input",
        "send-button",
        "stop-button",
        "attach-file",
        "take-control",
        "hand-back",
        "share-button",
        "nav-back",
        "nav-reload",
        "tab-new",
        "tab-share",
        "tab-close",
        "model-select",
    ):
        await expect(mate.locator(f"[data-testid={testid}]:visible")).to_have_count(0)
    await expect(mate.get_by_test_id("address-bar")).to_have_attribute("readonly", "")
    await expect(mate.get_by_test_id("readonly-note")).to_be_visible()

    # The owner's run streams live on bob's page.
    await owner.get_by_test_id("chat-input").fill("What is on the page?")
    await owner.get_by_test_id("send-button").click()
    await expect(mate.locator("[data-testid=message][data-role=user]")).to_have_text(re.compile("What is on the page"))
    await expect(mate.locator("[data-testid=message][data-streaming=true]")).to_be_visible(timeout=20_000)
    reply = mate.locator("[data-testid=message][data-role=assistant]")
    await expect(reply).to_have_text(re.compile(r"big blue button that says click me\.\s*$"), timeout=20_000)
    await expect(mate.get_by_test_id("run-status")).to_have_text(re.compile("succeeded"))

    # Neither the websocket nor the API takes a viewer's input.
    refused = await mate.evaluate(
        RAW_SOCKET,
        [conversation_id, [{"type": "input", "kind": "click", "x": 0.15, "y": 0.18}, {"type": "control.take"}]],
    )
    assert len(refused) == 2, refused
    assert "Viewers cannot use the live browser" in refused[0]
    assert "not act in it" in refused[1]
    base = f"{web_server}/api/conversations/{conversation_id}"
    for path, body in (
        ("/messages/", {"content": "let me in"}),
        ("/actions/", {"action": "go_back", "arguments": {}}),
        ("/control/", {"action": "take"}),
    ):
        status, payload = await api_post(mate, base + path, body)
        assert status == 403, (path, status, payload)
        assert "not act in it" in payload["detail"]

    # Made a controller, bob gets the controls at once, without reloading.
    await owner.get_by_test_id("share-button").click()
    await bob_share.get_by_test_id("share-role-select").select_option("controller")
    await expect(bob_share).to_have_attribute("data-role", "controller")
    await dialog.get_by_test_id("share-close").click()
    await expect(mate.get_by_test_id("my-role")).to_have_text("Controller")
    await expect(person(owner, "bob")).to_have_attribute("data-role", "controller")
    await expect(mate.get_by_test_id("chat-input")).to_be_visible()
    await expect(mate.get_by_test_id("control-holder")).to_have_text("")

    # Bob takes over: everyone sees he holds the browser (he reads it as his own).
    take = mate.get_by_test_id("take-control")
    await expect(take).to_be_enabled()
    await take.click()
    for page, said in ((owner, "bob has control"), (mate, "You have control")):
        await expect(page.get_by_test_id("control-status")).to_have_attribute("data-holder", "bob")
        await expect(page.get_by_test_id("control-status")).to_have_text(said)
    await expect(take).to_be_checked()
    await expect(owner.get_by_test_id("take-control")).not_to_be_checked()

    # His click in the live view reaches the page: the button (top-left 400x300 of 1280x800) changes the title.
    await expect(mate.get_by_test_id("live-view")).to_have_attribute("data-has-frame", "true")
    await click_in_live_view(mate, 200 / 1280, 150 / 800)
    title = ""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        title = await page_title(mate, web_server, conversation_id)
        if "Clicked at" in title:
            break
        await asyncio.sleep(0.3)
    assert "Clicked at" in title, title

    # He hands back: nobody holds the controls, the agent may continue.
    await mate.get_by_test_id("hand-back").click()
    for page in (owner, mate):
        await expect(page.get_by_test_id("control-holder")).to_have_text("")
    await expect(take).not_to_be_checked()

    # The owner removes bob: his open page says so at once and its websocket stays closed.
    sockets_before = await mate.evaluate("window.__hiveSockets.opened")
    await owner.get_by_test_id("share-button").click()
    await bob_share.get_by_test_id("share-revoke").click()
    await expect(bob_share).to_have_count(0)
    revoked = mate.get_by_test_id("access-revoked")
    await expect(revoked).to_be_visible(timeout=5_000)
    await expect(revoked).to_contain_text("Your access to this conversation was removed")
    closes = await mate.evaluate("window.__hiveSockets.closes")
    assert any(close["code"] == 4403 for close in closes), closes
    await expect(mate.get_by_test_id("connection-status")).to_have_text("No access")
    await expect(mate.locator("[data-testid=chat-input]:visible")).to_have_count(0)
    await expect(mate.locator("[data-testid=take-control]:visible")).to_have_count(0)
    await expect(person(owner, "bob")).to_have_count(0)
    await expect(mate.get_by_test_id("conversation-item")).to_have_count(0)
    await mate.wait_for_timeout(1500)
    assert await mate.evaluate("window.__hiveSockets.opened") == sockets_before, "the revoked page reconnected"

    await owner_context.close()
    await mate_context.close()


async def test_a_share_link_opens_after_signing_up(web_server: str, browser: Browser) -> None:
    owner_context = await browser.new_context()
    owner = await owner_context.new_page()
    await sign_up(owner, web_server, "grace")
    await owner.get_by_test_id("new-conversation").click()
    await expect(owner).to_have_url(re.compile(r"/c/\d+$"))
    conversation_id = int(owner.url.rsplit("/", 1)[1])

    await owner.get_by_test_id("share-button").click()
    dialog = owner.get_by_test_id("share-dialog")
    await dialog.get_by_test_id("share-link-role").select_option("viewer")
    await dialog.get_by_test_id("share-link-lifetime").select_option(str(60))
    await dialog.get_by_test_id("share-link-create").click()
    link_field = dialog.get_by_test_id("share-link-url")
    await expect(link_field).to_have_value(re.compile(rf"^{re.escape(web_server)}/share/[\w-]+$"))
    link = await link_field.input_value()
    await expect(dialog.get_by_test_id("share-link-item")).to_have_count(1)

    # A signed-out teammate is sent to sign in and comes back to the link.
    mate_context = await browser.new_context()
    mate = await mate_context.new_page()
    await mate.goto(link)
    await expect(mate).to_have_url(re.compile(r"/login\?next=%2Fshare%2F"))
    await mate.get_by_test_id("to-signup").click()
    await expect(mate).to_have_url(re.compile(r"/signup\?next=%2Fshare%2F"))
    await mate.fill("input[name=username]", "linus")
    await mate.fill("input[name=password]", "a-long-passphrase")
    await mate.click("button[type=submit]")
    await expect(mate.get_by_test_id("share-link-heading")).to_have_text("grace shared a conversation with you")
    await expect(mate.get_by_test_id("share-link-role")).to_have_attribute("data-role", "viewer")
    await mate.get_by_test_id("share-accept").click()
    await expect(mate).to_have_url(re.compile(rf"/c/{conversation_id}$"))
    await expect(mate.get_by_test_id("my-role")).to_have_text("Viewer")
    await expect(mate.locator("[data-testid=conversation-item][data-shared=true]")).to_have_count(1)

    # An unknown link and a revoked one say so.
    await mate.goto(f"{web_server}/share/no-such-token")
    await expect(mate.get_by_test_id("share-link-error")).to_have_attribute("data-status", "404")
    await owner.get_by_test_id("share-link-item").get_by_test_id("share-revoke").click()
    await expect(dialog.get_by_test_id("share-link-item")).to_have_count(0)
    await mate.goto(link)
    error = mate.get_by_test_id("share-link-error")
    await expect(error).to_have_attribute("data-status", "410")
    await expect(error).to_contain_text("revoked")

    await owner_context.close()
    await mate_context.close()
