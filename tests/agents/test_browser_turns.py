"""Whole agent turns on real Chromium (through the pool) with the scripted model choosing from what it is sent."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from agents import AgentConfig, run_agent_turn
from agents.prompts import PAGE_CONTEXT_INTRO
from agents.safety import SafetyConfig
from agents.secrets import SECRET_MASK, PlaceholderSecrets
from browser_pool.session import Session
from tests.agents.support import (
    RecordingSink,
    abort_when,
    act,
    calls_made,
    config,
    find_index,
    form_filler,
    form_reader,
    last_observation,
    message_text,
    observations,
)
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


def safe_for(site: str, **config: Any) -> SafetyConfig:
    """Private networks blocked as in production, the test site allowed like one of Hive's own demo sites."""
    return SafetyConfig(always_allowed_origins=(site,), **config)


def image_urls(request: dict[str, Any]) -> list[str]:
    return [
        str(part["image_url"]["url"])
        for message in request["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]


def image_parts(request: dict[str, Any]) -> int:
    return sum(
        1
        for message in request["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    )


async def order_turn(site: str, session: Session, sink: RecordingSink, cfg: AgentConfig) -> Any:
    history = [("user", f"Order a flight club card at {site}/order.html for Ada Lovelace, ada@example.com.")]
    return await run_agent_turn(config=cfg, history=history, tabs=session, sink=sink)


@pytest.mark.parametrize(
    ("protocol", "capabilities"),
    [("native", {}), ("fenced", {"provider": "custom"}), ("native", {"supports_vision": False})],
    ids=["function-calling-with-vision", "fenced-json", "function-calling-without-vision"],
)
async def test_a_form_task_in_several_steps(
    model_server: ScriptedLLM, sink: RecordingSink, site: str, session: Session, protocol: str, capabilities: Any
) -> None:
    model_server.script(form_filler(protocol))
    cfg = config(model_server.base_url, safety=safe_for(site), capabilities=capabilities)
    result = await order_turn(site, session, sink, cfg)

    assert result.reply.endswith("Done: the card for Ada Lovelace goes to ada@example.com, order HX-42.")
    steps = sink.actions()
    assert [(s.action, s.ok) for s in steps] == [
        ("navigate", True), ("get_elements", True), ("type", True), ("type", True), ("click", True)
    ]  # fmt: skip
    assert all(s.screenshot and s.screenshot[:2] == b"\xff\xd8" for s in steps if s.action != "get_elements")
    assert steps[-1].observation.count("Order number HX-42") == 1
    assert "Title: Order received" in steps[-1].observation
    # Each observation is in the context before the next decision, and the page summary is in the first request.
    for request, step in zip(model_server.requests[1:], steps, strict=True):
        assert step.observation in observations(request)[-1]
    assert PAGE_CONTEXT_INTRO in message_text(model_server.requests[0]["messages"][1])
    native, sees = protocol == "native", cfg.model is not None and cfg.model.sees_images
    assert all(("tools" in r) == native for r in model_server.requests)
    assert [image_parts(r) for r in model_server.requests] == ([0] + [1] * 5 if sees else [0] * 6)
    if not native:
        assert "```" not in result.reply


@pytest.mark.parametrize("approve", [True, False])
async def test_paying_on_a_checkout_page_needs_the_users_yes(
    model_server: ScriptedLLM, site: str, session: Session, approve: bool
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            return act("native", "get_elements", {})
        if len(made) == 1:
            return act("native", "click", {"index": find_index(request, "查看详情")})
        if len(made) == 2:
            return act("native", "click", {"index": find_index(request, "确认支付")})
        return Reply(content="结果：" + last_observation(request).splitlines()[0])

    model_server.script(handler)
    sink = RecordingSink(confirm_answer=approve)
    await session.active_page.goto(f"{site}/checkout/pay.html")
    await run_agent_turn(
        config=config(model_server.base_url, safety=safe_for(site)),
        history=[("user", "帮我付款")],
        tabs=session,
        sink=sink,
    )
    (request,) = sink.confirmations  # the details button did not ask, the pay button did
    assert request.action == "click"
    assert "'确认支付'" in request.reason
    assert "checkout" in request.reason
    assert request.url.endswith("/checkout/pay.html")
    out = await session.active_page.text_content("#out")
    assert out == ("支付成功" if approve else "详情：一张会员卡")
    pay = sink.actions()[2]
    assert pay.ok is approve
    if not approve:
        assert "it needs the user's yes" in pay.error
        assert "they declined or did not answer in time" in pay.error
        assert pay.screenshot is None


async def test_enter_on_a_sensitive_page_and_javascript_need_a_yes(
    model_server: ScriptedLLM, site: str, session: Session
) -> None:
    script: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
        ("press_key", lambda r: {"key": "Enter", "index": find_index(r, "Type DELETE to confirm")}),
        ("execute_js", lambda r: {"code": "document.getElementById('out').textContent = 'js ran'"}),
    ]

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            return act("native", "get_elements", {})
        if len(made) <= len(script):
            name, arguments = script[len(made) - 1]
            return act("native", name, arguments(request))
        return Reply(content="Nothing was done.")

    model_server.script(handler)
    sink = RecordingSink(confirm_answer=False)
    await session.active_page.goto(f"{site}/account/close.html")
    await run_agent_turn(
        config=config(model_server.base_url, safety=safe_for(site)), history=[("user", "x")], tabs=session, sink=sink
    )
    assert [c.action for c in sink.confirmations] == ["press_key", "execute_js"]
    assert await session.active_page.text_content("#out") == ""


async def test_navigation_guards_block_and_leave_private_addresses(
    model_server: ScriptedLLM, sink: RecordingSink, site: str, session: Session
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            return act("native", "navigate", {"url": "http://169.254.169.254/latest/meta-data/"})
        if len(made) == 1:
            return act("native", "get_elements", {})
        if len(made) == 2:
            return act("native", "click", {"index": find_index(request, "Internal dashboard")})
        return Reply(content="I may not open internal addresses.")

    model_server.script(handler)
    await session.active_page.goto(f"{site}/links.html")
    await run_agent_turn(
        config=config(model_server.base_url, safety=safe_for(site)), history=[("user", "x")], tabs=session, sink=sink
    )
    blocked, _, click = sink.actions()
    assert not blocked.ok
    assert "169.254.169.254 is a link-local address (cloud metadata lives here)" in blocked.error
    assert "the tab was emptied" in click.observation
    assert "URL: about:blank" in click.observation
    assert session.active_page.url == "about:blank"
    assert not any("Your card goes to secret" in str(r["messages"]) for r in model_server.requests)


@pytest.mark.parametrize(
    "arguments", [{"ms": 8000}, {"text": "a text that never appears", "timeout_ms": 8000}], ids=["sleep", "text"]
)
async def test_abort_during_a_slow_browser_action_halts_within_100_ms(
    model_server: ScriptedLLM, sink: RecordingSink, site: str, session: Session, arguments: dict[str, Any]
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not calls_made(request):
            return act("native", "get_elements", {})
        return act("native", "wait", arguments)

    model_server.script(handler)
    await session.active_page.goto(f"{site}/order.html")
    task = asyncio.create_task(
        run_agent_turn(config=config(model_server.base_url), history=[("user", "x")], tabs=session, sink=sink)
    )
    assert await abort_when(task, lambda: len(sink.actions()) == 2) < 0.1
    first, waiting = sink.actions()
    assert first.finished
    assert first.ok
    assert not waiting.finished
    assert await session.active_page.title() == "Flight club card"  # the browser is still fine to use


async def test_each_action_shows_what_changed_so_a_form_needs_no_look_up(
    model_server: ScriptedLLM, sink: RecordingSink, site: str, session: Session
) -> None:
    model_server.script(form_reader)
    cfg = config(model_server.base_url, safety=safe_for(site))
    result = await order_turn(site, session, sink, cfg)

    assert result.reply == "Done."
    steps = sink.actions()
    assert [(s.action, s.ok) for s in steps] == [("navigate", True), ("type", True), ("type", True), ("click", True)]
    assert len(model_server.requests) == len(steps) + 1  # acting steps + the answer: no look-ups
    opened, typed = steps[0].observation, steps[1].observation
    assert "Interactive elements in view: " in opened
    assert '"Submit"' in opened
    assert "Interactive elements in view that appeared or changed:" in typed
    changed = typed.split("appeared or changed:", 1)[1]
    assert 'value="Ada Lovelace"' in changed
    assert '"Submit"' not in changed  # what did not change is not repeated
    assert "Order your flight club card" in opened
    assert "Order your flight club card" not in typed  # nor the page's text, title and address
    assert "Title:" not in typed
    assert "Order number HX-42" in steps[-1].observation


async def _types_the_secret(
    model_server: ScriptedLLM, sink: RecordingSink, session: Session, site: str, *, page: str, field: str,
    secret: str, then: tuple[str, ...] = (),
) -> None:  # fmt: skip
    """A turn that opens `page`, types `{{pw}}` (holding `secret`) into `field`, calls the tools `then`, and ends."""

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": f"{site}/{page}"}}])
        if len(made) == 1:
            return Reply(tool_calls=[{"name": "type", "arguments": {"index": find_index(request, field),
                                                                       "text": "{{pw}}"}}])  # fmt: skip
        if len(made) - 2 < len(then):
            return Reply(tool_calls=[{"name": then[len(made) - 2], "arguments": {}}])
        return Reply(content="Done.")

    model_server.script(handler)
    await run_agent_turn(
        config=config(model_server.base_url, safety=safe_for(site)), history=[("user", "Type my secret.")],
        tabs=session, sink=sink, secrets=PlaceholderSecrets({"pw": secret}),
    )  # fmt: skip


async def test_a_secret_typed_by_its_placeholder_reaches_the_page_and_never_the_model(
    model_server: ScriptedLLM, sink: RecordingSink, session: Session, site: str
) -> None:
    secret = "correct-horse-battery-staple"
    # Typed into a plain text field: its value shows in the page after the step.
    await _types_the_secret(model_server, sink, session, site, page="order.html", field="Name", secret=secret)
    assert await session.active_page.input_value("#name") == secret
    typed = sink.actions()[1]
    assert typed.ok
    assert typed.arguments is not None
    assert typed.arguments["text"] == "{{pw}}"  # recorded as the model wrote it
    assert SECRET_MASK in typed.observation
    assert secret not in json.dumps([[s.arguments, s.observation, s.error] for s in sink.steps])
    assert secret not in json.dumps(model_server.requests)


async def test_a_secret_the_page_shows_back_is_covered_in_every_picture_the_model_gets(
    model_server: ScriptedLLM, sink: RecordingSink, session: Session, site: str
) -> None:
    secret = "MMMMMMMMMM"
    await _types_the_secret(model_server, sink, session, site, page="account/welcome.html", field="Your name",
                            secret=secret, then=("screenshot",))  # fmt: skip
    page = session.active_page
    assert await page.text_content("#who") == secret  # the page shows it back
    box = await page.locator("#who").bounding_box()
    assert box is not None
    greeting = (0, int(box["y"]), int(box["x"] + box["width"]), int(box["y"] + box["height"]))

    def darkest(picture: bytes, left: int, right: int) -> int:
        image = Image.open(io.BytesIO(picture)).convert("L")
        scale = image.width / page.viewport_size["width"] if page.viewport_size else 1.0
        low, _ = image.crop((left * scale, greeting[1] * scale, right * scale, greeting[3] * scale)).getextrema()
        assert isinstance(low, int)
        return low

    after_type, taken = sink.steps[1].screenshot, sink.steps[2].screenshot
    sent = [base64.b64decode(url.split(",", 1)[1]) for url in image_urls(model_server.requests[-1])]
    assert after_type is not None
    assert taken is not None
    assert sent, "the model was sent the pictures"
    for picture in (after_type, taken, *sent):
        assert darkest(picture, int(box["x"]), greeting[2]) > 100, "a letter of the secret is in the picture"
        assert darkest(picture, 0, int(box["x"])) < 100, "the greeting before it is pictured"
