"""The safety policy: levels from its rules in English and Chinese, and the navigation guards."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.events import TargetFacts
from agents.safety import PageFacts, SafetyConfig, SafetyPolicy

pytestmark = pytest.mark.asyncio

NORMAL = PageFacts("https://blog.example/posts/7", "A post about gardening. Leave a comment below.")


async def fake_resolver(host: str) -> list[str]:
    """DNS without the network: a few internal names, everything else public."""
    return {
        "intranet.corp": ["10.0.0.7"],
        "rebind.example": ["93.184.216.34", "127.0.0.1"],
        "nowhere.invalid": [],
    }.get(host, ["93.184.216.34"])


def policy(**config: Any) -> SafetyPolicy:
    return SafetyPolicy(SafetyConfig(**config), resolver=fake_resolver)


async def level(
    tool: str,
    arguments: dict[str, Any] | None = None,
    page: PageFacts = NORMAL,
    target: str | TargetFacts | None = "",
    *,
    read_only: bool = False,
    source: str = "browser",
    **config: Any,
) -> str:
    async def probe() -> TargetFacts | None:
        return TargetFacts(target) if isinstance(target, str) else target

    decision = await policy(**config).assess(
        tool=tool, read_only=read_only, source=source, arguments=arguments or {}, page=page, target_text=probe
    )
    return decision.level


CHECKOUT = PageFacts("https://shop.example/checkout/step-2", "Your basket: 1 item. Total 12 EUR.")
PAY_CN = PageFacts("https://shop.example/order/88", "订单支付 金额：¥99.00 确认支付")
DELETE_CN = PageFacts("https://app.example/me", "删除账户后数据不可恢复")
DELETE_EN = PageFacts("https://app.example/me", "This will permanently delete your files. It cannot be undone.")
LOGIN = PageFacts("https://example.com/login?next=/", "Sign in to continue")
UNSUBSCRIBE = PageFacts("https://news.example/prefs", "Unsubscribe from all newsletters")


@pytest.mark.parametrize(
    ("tool", "arguments", "page", "target", "expected"),
    [
        ("execute_js", {"code": "1"}, NORMAL, "", "confirm"),
        ("upload_file", {"file_id": "f1", "index": 2}, NORMAL, "", "confirm"),
        ("click", {"index": 4}, CHECKOUT, "Place order", "confirm"),
        ("click", {"index": 4}, CHECKOUT, "Submit", "confirm"),
        ("click", {"index": 4}, CHECKOUT, "Show details", "auto"),
        ("click", {"index": 4}, PAY_CN, "确认支付", "confirm"),
        ("click", {"index": 4}, PAY_CN, "立即购买", "confirm"),
        ("click", {"index": 4}, PAY_CN, "查看详情", "auto"),
        ("click", {"index": 4}, DELETE_CN, "确认删除", "confirm"),
        ("click", {"index": 4}, DELETE_CN, "提交", "confirm"),
        ("click", {"index": 4}, DELETE_EN, "Delete files", "confirm"),
        ("click", {"index": 4}, DELETE_EN, "Go back", "auto"),
        ("click", {"selector": "#u"}, UNSUBSCRIBE, "Unsubscribe", "confirm"),
        ("click", {"x": 10, "y": 20}, PageFacts("https://x.example/admin/users"), "Remove user", "confirm"),
        ("click", {"index": 4}, PageFacts("https://x.example/account/settings"), "取消订单", "confirm"),
        ("click", {"index": 4}, NORMAL, "Submit", "auto"),  # submit-like, but the page is not sensitive
        ("click", {"index": 4}, NORMAL, "Display options", "auto"),  # "pay" inside a word is no payment
        ("press_key", {"key": "Enter"}, LOGIN, "", "confirm"),
        ("press_key", {"key": "Enter"}, PAY_CN, "", "confirm"),
        ("press_key", {"key": "Tab"}, LOGIN, "", "auto"),
        ("press_key", {"key": "Enter"}, NORMAL, "", "auto"),
        ("type", {"index": 1, "text": "ada"}, LOGIN, "", "notify"),
        ("type", {"index": 1, "text": "ada"}, NORMAL, "", "auto"),
        ("navigate", {"url": "https://bank.example/transfer"}, NORMAL, "", "notify"),
        ("navigate", {"url": "https://example.com/docs"}, NORMAL, "", "auto"),
        ("get_elements", {}, CHECKOUT, "", "auto"),
        ("scroll", {"direction": "down"}, DELETE_CN, "", "auto"),
    ],
)
async def test_browser_actions_get_their_safety_levels(
    tool: str, arguments: dict[str, Any], page: PageFacts, target: str, expected: str
) -> None:
    assert await level(tool, arguments, page, target) == expected


@pytest.mark.parametrize(
    ("source", "read_only", "mode", "expected"),
    [
        ("webmcp", False, "confirm", "confirm"),
        ("skill", False, "confirm", "confirm"),
        ("webmcp", True, "confirm", "auto"),
        ("webmcp", False, "auto", "auto"),
        ("agent", False, "confirm", "auto"),  # the agent's own bookkeeping (plans) never asks
    ],
)
async def test_contributed_tools_ask_in_confirm_mode(source: str, read_only: bool, mode: str, expected: str) -> None:
    result = await level("add_to_cart", {}, NORMAL, source=source, read_only=read_only, confirm_mode=mode)
    assert result == expected


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,<h1>hi</h1>",
        "http://127.0.0.1:8000/",
        "http://localhost:3000/",
        "http://app.localhost/",
        "http://10.1.2.3/",
        "http://172.16.0.5/",
        "http://192.168.1.1/admin",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:8000/",
        "http://[fe80::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://2130706433/",  # 127.0.0.1 written as one number
        "http://intranet.corp/wiki",  # a name that resolves inside
        "http://rebind.example/",  # one of its addresses is inside
        "http://localhost.:8000/",  # a trailing dot
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://user@127.0.0.1:8000/",
        "http://100.64.0.1/",  # CGNAT
        "http://[fd00::1]/",  # IPv6 unique-local
        "http://[2002:7f00:1::]/",  # 6to4 around 127.0.0.1
        "http://nowhere.invalid/",  # a name that does not resolve is refused, not waved through
    ],
)
async def test_navigation_to_private_addresses_and_other_schemes_is_blocked(url: str) -> None:
    assert await level("navigate", {"url": url}) == "block"
    assert await level("open_tab", {"url": url}) == "block"


@pytest.mark.parametrize(
    "url", ["https://example.com/", "http://93.184.216.34/", "example.com", "https://[2606:4700::1]/"]
)
async def test_public_addresses_may_be_opened(url: str) -> None:
    assert await level("navigate", {"url": url}) == "auto"


async def test_the_private_network_block_can_be_turned_off_for_development() -> None:
    assert await level("navigate", {"url": "http://127.0.0.1:8000/"}, block_private_networks=False) == "auto"


async def test_the_operator_opens_exact_hosts_ports_and_blocks() -> None:
    opened: dict[str, Any] = {"allowed_addresses": ("127.0.0.1:8000", "10.0.0.0/8")}
    assert await level("navigate", {"url": "http://127.0.0.1:8000/"}, **opened) == "auto"
    assert await level("navigate", {"url": "http://127.0.0.1:8001/"}, **opened) == "block"
    assert await level("navigate", {"url": "http://intranet.corp/"}, **opened) == "auto"
    assert await level("navigate", {"url": "http://192.168.0.1/"}, **opened) == "block"


async def test_hives_own_origins_are_always_reachable() -> None:
    allowed: dict[str, Any] = {
        "always_allowed_origins": ("http://127.0.0.1:8000",),
        "allowed_domains": ("example.com",),
    }
    assert await level("navigate", {"url": "http://127.0.0.1:8000/demo/shop"}, **allowed) == "auto"
    assert await level("navigate", {"url": "http://127.0.0.1:9000/"}, **allowed) == "block"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://evil.com/", "block"),
        ("https://shop.evil.com/", "block"),
        ("https://notevil.com/", "auto"),
    ],
)
async def test_the_deny_list_matches_domains_and_their_subdomains(url: str, expected: str) -> None:
    assert await level("navigate", {"url": url}, denied_domains=("evil.com",)) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [("https://example.com/", "auto"), ("https://docs.example.com/a", "auto"), ("https://other.org/", "block")],
)
async def test_an_allow_list_keeps_navigation_on_its_domains(url: str, expected: str) -> None:
    assert await level("navigate", {"url": url}, allowed_domains=("example.com",)) == expected


async def test_a_block_says_why() -> None:
    decision = await policy().assess(
        tool="navigate", read_only=False, source="browser", arguments={"url": "http://10.0.0.1/"}, page=NORMAL
    )
    assert decision.level == "block"
    assert "private-network" in decision.reason
    assert "10.0.0.1" in decision.reason


# -- whatever submits on a sensitive page asks, by every path ----------------------------------------------------

ENTER_NAMES = ["Enter", "Return", "NumpadEnter", "\n", "\r", "\r\n", "KP_Enter"]
MODIFIER_NAMES = ["Shift", "Control", "Ctrl", "Alt", "Meta", "Cmd"]
SENSITIVE_PAGES = [CHECKOUT, PAY_CN, DELETE_CN, DELETE_EN, LOGIN, UNSUBSCRIBE]


def _any_case(draw: st.DrawFn, name: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    return "".join(c.swapcase() if flip else c for c, flip in zip(name, flips, strict=True))


@st.composite
def enter_combinations(draw: st.DrawFn) -> str:
    """Enter by any of its names, in any case, with any modifiers before or after it."""
    enter = _any_case(draw, draw(st.sampled_from(ENTER_NAMES)))
    held = [_any_case(draw, m) for m in draw(st.lists(st.sampled_from(MODIFIER_NAMES), unique=True, max_size=4))]
    position = draw(st.integers(min_value=0, max_value=len(held)))
    return "+".join([*held[:position], enter, *held[position:]])


@st.composite
def other_combinations(draw: st.DrawFn) -> str:
    key = draw(st.sampled_from(["a", "K", "Tab", "Escape", "ArrowDown", "PageUp", "Backspace", "F5", "1", "+"]))
    held = draw(st.lists(st.sampled_from(MODIFIER_NAMES), unique=True, max_size=3))
    return "+".join([*held, key])


@settings(max_examples=200, deadline=None)
@given(key=enter_combinations(), page=st.sampled_from(SENSITIVE_PAGES))
async def test_every_enter_asks_on_a_sensitive_page(key: str, page: PageFacts) -> None:
    assert await level("press_key", {"key": key}, page, TargetFacts("Name", pressable=False)) == "confirm"
    assert await level("press_key", {"key": key, "index": 3}, page) == "confirm"
    assert await level("press_key", {"key": key}, NORMAL) == "auto"


@settings(max_examples=100, deadline=None)
@given(key=other_combinations(), page=st.sampled_from(SENSITIVE_PAGES))
async def test_keys_that_do_not_submit_do_not_ask(key: str, page: PageFacts) -> None:
    assert await level("press_key", {"key": key}, page, TargetFacts("Pay now", pressable=True)) == "auto"


@settings(max_examples=200, deadline=None)
@given(
    before=st.text(max_size=30), after=st.text(max_size=30), brk=st.sampled_from(["\n", "\r", "\r\n"]),
    page=st.sampled_from(SENSITIVE_PAGES),
)  # fmt: skip
async def test_a_line_break_in_typed_text_asks_on_a_sensitive_page(
    before: str, after: str, brk: str, page: PageFacts
) -> None:
    assert await level("type", {"index": 1, "text": before + brk + after}, page) == "confirm"
    assert await level("type", {"index": 1, "text": before + brk + after}, NORMAL) == "auto"


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=60).filter(lambda t: "\n" not in t and "\r" not in t))
async def test_text_without_a_line_break_is_only_noted(text: str) -> None:
    assert await level("type", {"index": 1, "text": text}, CHECKOUT) == "notify"


@pytest.mark.parametrize("space", [" ", "Space", "space", "Shift+Space", "SPACEBAR"])
@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (TargetFacts("Pay now", pressable=True), "confirm"),  # like a click on it
        (TargetFacts("确认支付", pressable=True), "confirm"),
        (TargetFacts("Show details", pressable=True), "auto"),
        (TargetFacts("Pay now", pressable=False), "auto"),  # Space in a field types a space
        (None, "confirm"),  # the focused element could not be read
    ],
)
async def test_space_on_a_focused_control_asks_like_a_click(
    space: str, target: TargetFacts | None, expected: str
) -> None:
    assert await level("press_key", {"key": space}, CHECKOUT, target) == expected
    assert await level("press_key", {"key": space}, NORMAL, target) == "auto"


async def test_a_target_that_cannot_be_read_asks_on_a_sensitive_page() -> None:
    async def failing() -> TargetFacts | None:
        raise RuntimeError("the page did not answer")

    for probe in (failing, None):
        decision = await policy().assess(
            tool="click", read_only=False, source="browser", arguments={"index": 4}, page=CHECKOUT, target_text=probe
        )
        assert decision.level == "confirm"
        assert "could not be read" in decision.reason
    assert await level("click", {"index": 4}, CHECKOUT, None) == "confirm"
    assert await level("click", {"index": 4}, NORMAL, None) == "auto", "an ordinary page does not ask"


@pytest.mark.parametrize(
    ("page", "read_only", "expected"),
    [(CHECKOUT, False, "confirm"), (DELETE_CN, False, "confirm"), (CHECKOUT, True, "auto"), (NORMAL, False, "auto")],
)
@pytest.mark.parametrize("source", ["webmcp", "skill", "page"])
async def test_page_and_skill_tools_that_change_things_ask_on_sensitive_pages_in_any_mode(
    page: PageFacts, read_only: bool, expected: str, source: str
) -> None:
    assert await level("place_order", {}, page, source=source, read_only=read_only) == expected
