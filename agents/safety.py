"""The safety policy: every tool call gets a level, auto / notify / confirm / block.

- block: navigation guards. Only http(s) (file:, javascript:, data: ... are refused); a domain deny list and an
  optional allow list (suffix match: "example.com" covers "shop.example.com"); every address that is not public
  (the host is resolved, and a name that does not resolve is refused) unless the operator allowed it
  (`allowed_addresses`) or the origin is one of Hive's own (`always_allowed_origins`). This is the same policy as
  the browser's network firewall (browser_pool.net), which enforces it on every request; here it gives the agent a
  clear refusal before it tries.
- confirm: execute_js and upload_file always; on a sensitive page, whatever submits: a click on a submit-like button
  (pay, delete, 提交, 删除 ...), every Enter (any name or spelling of it, with any modifiers, a newline in typed
  text), Space on a focused button-like control whose text is submit-like, a tool from the page or a SKILL that is
  not read-only, and the page's own confirm/prompt/beforeunload dialogs; a non-read-only tool from a page or SKILL
  anywhere when the user chose "confirm" mode. What the action aims at that cannot be read is taken as
  submit-like: the policy fails closed.
- notify: opening a sensitive address, typing into a sensitive page.
- auto: everything else.
A page is sensitive when its address matches a pattern (checkout, payment, login, delete, admin, bank ...)
or its text contains a keyword (确认支付, 永久删除, delete account, cannot be undone ...), in English and Chinese.
Every caller (the agent, actions by hand or from MCP clients, workflow replays) asks this one policy.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from agents.events import SafetyLevel, TargetFacts
from agents.tools.base import SOURCE_AGENT, SOURCE_BROWSER
from browser_pool.actions.errors import ActionError
from browser_pool.actions.page import checked_url
from browser_pool.actions.watch import DialogAnswer, DialogAnswerer, DialogInfo
from browser_pool.net.policy import EgressPolicy, system_resolver
from browser_pool.types import JsonObject

# Addresses of pages where a click can pay, sign in or delete: matched case-insensitively anywhere in the address
# ("pay/" only as a path part).
SENSITIVE_URL_PATTERNS: tuple[str, ...] = (
    "checkout", "payment", "pay/", "billing", "login", "log-in", "signin", "sign-in", "signup", "sign-up", "auth",
    "oauth", "delete", "remove", "cancel", "unsubscribe", "admin", "settings", "account", "profile", "bank",
    "transfer", "wire",
)  # fmt: skip
# Words on a page that pays or deletes for good, matched case-insensitively in the page's visible text.
SENSITIVE_PAGE_KEYWORDS: tuple[str, ...] = (
    "确认支付", "立即支付", "确认付款", "删除账户", "注销", "取消订阅", "确认删除", "永久删除", "不可恢复",
    "confirm payment", "delete account", "delete your account", "unsubscribe", "permanently delete",
    "cannot be undone", "can't be undone",
)  # fmt: skip
# Submit-like button texts: paying, ordering, submitting, and deleting or cancelling, which cannot be taken back.
SUBMIT_BUTTON_PATTERN = (
    r"(?<![a-z])(submit|confirm|pay|purchase|buy|order|checkout|delete|remove|cancel|unsubscribe|transfer)"
    r"|确认|提交|支付|付款|购买|下单|删除|移除|取消"
)
ALWAYS_CONFIRM_TOOLS: tuple[str, ...] = ("execute_js", "upload_file")
NAVIGATING_TOOLS: tuple[str, ...] = ("navigate", "open_tab")
# Every name a key that submits a form goes by (compared lower-case, without spaces): Playwright's, the numeric
# keypad's, the characters themselves and what models write.
ENTER_KEYS = frozenset({"enter", "return", "numpadenter", "kpenter", "kp_enter", "\n", "\r", "\r\n", "linefeed"})
SPACE_KEYS = frozenset({" ", "space", "spacebar"})

ConfirmMode = Literal["auto", "confirm"]
Resolver = Callable[[str], Awaitable[list[str]]]
# Asks the user whether to accept a page's dialog, saying why it asks; True for a yes.
DialogAsk = Callable[[DialogInfo, str], Awaitable[bool]]


# Reads the target; None (or an error) when it cannot be read, which the policy takes as submit-like.
TextProbe = Callable[[], Awaitable[TargetFacts | None]]


@dataclass(frozen=True, slots=True)
class SafetyConfig:
    # "confirm": non-read-only tools from pages and SKILLs ask first: their authors, not Hive, decide what they do.
    confirm_mode: ConfirmMode = "auto"
    allowed_domains: tuple[str, ...] = ()  # empty: any domain not denied
    denied_domains: tuple[str, ...] = ()
    block_private_networks: bool = True
    # Hosts, host:port pairs and CIDR blocks the operator opened in the network firewall (browser_pool.net).
    allowed_addresses: tuple[str, ...] = ()
    # Origins reachable whatever the rules above say, e.g. Hive's own demo sites ("http://127.0.0.1:8000").
    always_allowed_origins: tuple[str, ...] = ()
    sensitive_url_patterns: tuple[str, ...] = SENSITIVE_URL_PATTERNS
    sensitive_page_keywords: tuple[str, ...] = SENSITIVE_PAGE_KEYWORDS
    submit_button_pattern: str = SUBMIT_BUTTON_PATTERN
    always_confirm_tools: tuple[str, ...] = ALWAYS_CONFIRM_TOOLS


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What the policy knows about the active page: its address and the start of its visible text."""

    url: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class SafetyDecision:
    level: SafetyLevel
    reason: str = ""


AUTO = SafetyDecision("auto")


def key_parts(key: str) -> list[str]:
    """The keys of a combination as the browser would press them, normalised ("Shift+NumpadEnter" ->
    ["shift", "numpadenter"]); a single character (" ", "\n", "+") is one key."""
    if len(key) <= 1:
        return [key.lower()]
    return ["".join(part.split()).lower() or part for part in key.split("+") if part] or [key]


def submits_by_key(key: str) -> bool:
    """Whether pressing `key` (alone or in a combination, in any order) presses Enter."""
    return any(part in ENTER_KEYS for part in key_parts(key))


def presses_space(key: str) -> bool:
    return any(part in SPACE_KEYS for part in key_parts(key))


def types_a_newline(text: str) -> bool:
    """Typing a line break presses Enter, which submits a form from any of its fields."""
    return "\n" in text or "\r" in text


async def read_target(probe: TextProbe | None) -> TargetFacts | None:
    """The target as the probe reads it; None when it cannot be read (no probe, a failure, or nothing returned)."""
    if probe is None:
        return None
    try:
        return await probe()
    except Exception:  # an unreadable target is judged as the riskiest it could be, never as an empty one
        return None


async def resolve_host(host: str) -> list[str]:
    """The host's addresses; [] when it cannot be resolved in time (the navigation is then refused)."""
    try:
        return await system_resolver(host, 0)
    except (OSError, TimeoutError, UnicodeError):
        return []


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{(parts.hostname or '').lower()}:{port}"


def domain_matches(host: str, domains: tuple[str, ...]) -> str | None:
    host = host.lower().rstrip(".")
    for domain in domains:
        domain = domain.lower().strip().lstrip("*").strip(".")
        if domain and (host == domain or host.endswith("." + domain)):
            return domain
    return None


class SafetyPolicy:
    def __init__(self, config: SafetyConfig, *, resolver: Resolver = resolve_host) -> None:
        self.config = config
        self._resolver = resolver
        self._resolved: dict[str, list[str]] = {}
        self._submit = re.compile(config.submit_button_pattern, re.IGNORECASE)
        self._allowed_origins = {origin_of(o) for o in config.always_allowed_origins}
        # The same address policy as the browser's network firewall, so the agent hears "no" before it tries.
        # Hive's own origins pass above by their exact origin; another name for the same address does not.
        self._egress = EgressPolicy(allow=config.allowed_addresses, resolver=self._resolve)

    # -- navigation ------------------------------------------------------------------------------------------

    async def navigation_block(self, raw_url: str) -> str | None:
        """Why the browser must not open this address, or None when it may."""
        try:
            url = checked_url(raw_url)
        except ActionError as exc:
            return exc.error
        host = (urlsplit(url).hostname or "").lower()
        if origin_of(url) in self._allowed_origins:
            return None
        denied = domain_matches(host, self.config.denied_domains)
        if denied is not None:
            return f"{host} is on the deny list ({denied})"
        if self.config.allowed_domains and domain_matches(host, self.config.allowed_domains) is None:
            return f"{host} is not on the allow list ({', '.join(self.config.allowed_domains)})"
        if self.config.block_private_networks:
            parts = urlsplit(url)
            verdict = await self._egress.check(host, parts.port or (443 if parts.scheme == "https" else 80))
            if not verdict.allowed:
                return verdict.reason
        return None

    async def _resolve(self, host: str, port: int) -> list[str]:
        if host not in self._resolved:
            self._resolved[host] = await self._resolver(host)
        if not self._resolved[host]:
            raise OSError(f"{host} has no address")  # a name that does not resolve is refused, not waved through
        return self._resolved[host]

    # -- sensitive pages -------------------------------------------------------------------------------------

    def url_sensitivity(self, url: str) -> str:
        lowered = url.lower()
        match = next((p for p in self.config.sensitive_url_patterns if p in lowered), None)
        return f"its address contains {match!r}" if match else ""

    def page_sensitivity(self, page: PageFacts) -> str:
        """Why the page is sensitive ("" when it is not)."""
        by_url = self.url_sensitivity(page.url)
        if by_url:
            return by_url
        text = page.text.lower()
        keyword = next((k for k in self.config.sensitive_page_keywords if k.lower() in text), None)
        return f"the page says {keyword!r}" if keyword else ""

    def is_submit_like(self, text: str) -> bool:
        return bool(text) and self._submit.search(text) is not None

    # -- the level of one call -------------------------------------------------------------------------------

    async def assess(
        self,
        *,
        tool: str,
        read_only: bool,
        source: str,
        arguments: JsonObject,
        page: PageFacts,
        target_text: TextProbe | None = None,
    ) -> SafetyDecision:
        if tool in NAVIGATING_TOOLS and isinstance(arguments.get("url"), str) and arguments["url"].strip():
            blocked = await self.navigation_block(arguments["url"])
            if blocked is not None:
                return SafetyDecision("block", f"the address is not allowed: {blocked}")
        if tool in self.config.always_confirm_tools:
            what = "run JavaScript in the page" if tool == "execute_js" else "put one of your files into the page"
            return SafetyDecision("confirm", f"the agent wants to {what}")
        if source not in (SOURCE_BROWSER, SOURCE_AGENT):
            if read_only:
                return AUTO
            if self.config.confirm_mode == "confirm":
                return SafetyDecision("confirm", f"{tool} (from {source}) may change things, and confirm mode is on")
            sensitive = self.page_sensitivity(page)
            if sensitive:
                return SafetyDecision(
                    "confirm", f"{tool} (from {source}) may change things on a sensitive page ({sensitive})"
                )
            return AUTO
        if source != SOURCE_BROWSER:
            return AUTO
        return await self._browser_level(tool, arguments, page, target_text)

    async def _browser_level(
        self, tool: str, arguments: JsonObject, page: PageFacts, target_text: TextProbe | None
    ) -> SafetyDecision:
        sensitive = self.page_sensitivity(page)
        key = str(arguments.get("key", ""))
        if sensitive and tool == "press_key" and submits_by_key(key):
            return SafetyDecision("confirm", f"pressing Enter may submit a form on a sensitive page ({sensitive})")
        if sensitive and tool == "type" and types_a_newline(str(arguments.get("text", ""))):
            return SafetyDecision("confirm", f"a line break typed presses Enter on a sensitive page ({sensitive})")
        if sensitive and (tool == "click" or (tool == "press_key" and presses_space(key))):
            decision = await self._target_level(tool, target_text, sensitive)
            if decision is not None:
                return decision
        if tool in NAVIGATING_TOOLS and isinstance(arguments.get("url"), str):
            why = self.url_sensitivity(arguments["url"])
            if why:
                return SafetyDecision("notify", f"opening a sensitive page ({why})")
        if tool in ("type", "select") and sensitive:
            return SafetyDecision("notify", f"entering data on a sensitive page ({sensitive})")
        return AUTO

    def dialog_decision(self, dialog: DialogInfo) -> SafetyDecision:
        """A page's own confirm, prompt or beforeunload on a sensitive page (its address, or what the dialog says)
        is the user's to answer; an alert only informs."""
        if dialog.kind == "alert":
            return AUTO
        sensitive = self.page_sensitivity(PageFacts(dialog.url, dialog.message))
        if not sensitive:
            return AUTO
        return SafetyDecision("confirm", f"the page asks {dialog.message[:200]!r} on a sensitive page ({sensitive})")

    async def _target_level(self, tool: str, probe: TextProbe | None, sensitive: str) -> SafetyDecision | None:
        """A click, or Space on a focused control, asks when what it presses is submit-like — or cannot be read."""
        target = await read_target(probe)
        if target is None:
            return SafetyDecision(
                "confirm", f"what the {tool} would press on a sensitive page ({sensitive}) could not be read"
            )
        if tool == "press_key" and not target.pressable:
            return None  # Space in a field types a space, on the page it scrolls
        if self.is_submit_like(target.text):
            verb = "clicking" if tool == "click" else "pressing Space on"
            return SafetyDecision("confirm", f"{verb} {target.text.strip()[:80]!r} on a sensitive page ({sensitive})")
        return None


def dialog_answerer(policy: SafetyPolicy, ask: DialogAsk | None, *, timeout_s: float) -> DialogAnswerer:
    """The answer to a page's dialogs by the policy: accepted on an ordinary page; on a sensitive one, accepted only
    on the user's yes within `timeout_s` — dismissed without one, or when nobody can be asked (`ask` None)."""

    async def answer(dialog: DialogInfo) -> DialogAnswer:
        decision = policy.dialog_decision(dialog)
        if decision.level != "confirm":
            return DialogAnswer(True, "answered automatically")
        if ask is None:
            return DialogAnswer(False, f"dismissed: {decision.reason}, and nobody could be asked")
        try:
            async with asyncio.timeout(timeout_s):
                yes = await ask(dialog, decision.reason)
        except TimeoutError:
            yes = False
        return DialogAnswer(True, "accepted: the user said yes") if yes else DialogAnswer(False, "dismissed: no yes")

    return answer
