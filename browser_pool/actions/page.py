"""Whole-page actions: navigate, history, refresh, wait, screenshot, execute_js."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect, Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_pool.actions import params as p
from browser_pool.actions.context import ActionContext, Outcome
from browser_pool.actions.errors import ActionError
from browser_pool.actions.watch import stop_page_scripts
from browser_pool.masks import masked_screenshot

NAVIGATION_TIMEOUT_MS = 15_000
WAIT_CAP_MS = 10_000
JS_RESULT_MAX_CHARS = 4_000
SCREENSHOT_QUALITY = 75
# Full-page screenshots of endless pages are cut here; Chromium cannot paint much taller images anyway.
SCREENSHOT_MAX_HEIGHT = 12_000


def checked_url(raw: str) -> str:
    """An http(s) URL, adding the scheme a model often leaves out; anything else is refused with a reason."""
    url = raw.strip()
    scheme = urlsplit(url).scheme.lower()
    if re.match(r"^[\w.-]+:\d+(/|$)", url):
        url, scheme = "http://" + url, "http"  # host:port, e.g. localhost:8000
    elif not scheme:
        url, scheme = "https://" + url, "https"
    if scheme not in ("http", "https"):
        raise ActionError(
            f"{scheme}: URLs cannot be opened; only http and https pages",
            "give a web address such as https://example.com/",
        )
    if not urlsplit(url).hostname:
        raise ActionError(f"{raw!r} is not a complete web address", "give a web address such as https://example.com/")
    return url


def _navigation_timeout(ctx: ActionContext) -> int:
    return max(ctx.timeout_ms, NAVIGATION_TIMEOUT_MS)


async def _page_state(page: Page, response: Response | None) -> dict[str, Any]:
    data: dict[str, Any] = {}
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_load_state("domcontentloaded", timeout=NAVIGATION_TIMEOUT_MS)
    if response is not None:
        data["status"] = response.status
        if response.status >= 400:
            data["note"] = f"the server answered {response.status}; the page is probably an error page"
    with contextlib.suppress(PlaywrightError):
        data["title"] = await page.title()
    return data


async def navigate(ctx: ActionContext, args: p.Navigate) -> Outcome:
    url = checked_url(args.url)
    ctx.subject = url
    response = await ctx.page.goto(url, wait_until="commit", timeout=_navigation_timeout(ctx))
    return Outcome(await _page_state(ctx.page, response))


async def go_back(ctx: ActionContext, args: p.NoArguments) -> Outcome:
    response = await ctx.page.go_back(wait_until="commit", timeout=_navigation_timeout(ctx))
    if response is None and not ctx.watch.navigated:
        raise ActionError("there is no earlier page in this tab's history")
    return Outcome(await _page_state(ctx.page, response))


async def go_forward(ctx: ActionContext, args: p.NoArguments) -> Outcome:
    response = await ctx.page.go_forward(wait_until="commit", timeout=_navigation_timeout(ctx))
    if response is None and not ctx.watch.navigated:
        raise ActionError("there is no later page in this tab's history (go_forward only undoes go_back)")
    return Outcome(await _page_state(ctx.page, response))


async def refresh(ctx: ActionContext, args: p.NoArguments) -> Outcome:
    response = await ctx.page.reload(wait_until="commit", timeout=_navigation_timeout(ctx))
    return Outcome(await _page_state(ctx.page, response))


async def wait(ctx: ActionContext, args: p.Wait) -> Outcome:
    conditions = [value for value in (args.ms, args.selector, args.text) if value is not None]
    if len(conditions) != 1:
        raise ActionError("give exactly one of ms, selector or text", 'e.g. {"ms": 1000} or {"text": "Results"}')
    if args.ms is not None:
        waited = min(args.ms, WAIT_CAP_MS)
        await asyncio.sleep(waited / 1000)
        data: dict[str, Any] = {"waited_ms": waited}
        if waited < args.ms:
            data["note"] = f"waits are capped at {WAIT_CAP_MS / 1000:g} s"
        return Outcome(data)
    limit = min(args.timeout_ms if args.timeout_ms is not None else ctx.timeout_ms, WAIT_CAP_MS)
    if args.selector is not None:
        what = f"an element matching {args.selector!r}"
        locator = ctx.page.locator(args.selector).first
    else:
        what = f"the text {args.text!r}"
        locator = ctx.page.get_by_text(str(args.text)).first
    try:
        await locator.wait_for(state="visible", timeout=limit)
    except PlaywrightTimeoutError as exc:
        raise ActionError(
            f"{what} did not appear within {limit / 1000:g} s", "look at the page (get_elements)"
        ) from exc
    except PlaywrightError as exc:
        raise ActionError(f"{args.selector!r} is not a valid selector", "use a CSS selector") from exc
    return Outcome({"appeared": what})


async def screenshot(ctx: ActionContext, args: p.Screenshot) -> Outcome:
    full_page = args.full_page
    clip: FloatRect | None = None
    if full_page:
        width, height = await ctx.page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        if height > SCREENSHOT_MAX_HEIGHT:
            clip = {"x": 0, "y": 0, "width": width, "height": SCREENSHOT_MAX_HEIGHT}
    image = await masked_screenshot(
        ctx.page, args.hidden, type="jpeg", quality=SCREENSHOT_QUALITY, full_page=full_page, clip=clip,
        timeout=max(ctx.timeout_ms, 10_000),
    )  # fmt: skip
    data: dict[str, Any] = {"bytes": len(image), "full_page": full_page}
    if clip is not None:
        data["note"] = f"the page is taller than {SCREENSHOT_MAX_HEIGHT} px; the picture shows its top part"
    return Outcome(data, screenshot=image)


async def execute_js(ctx: ActionContext, args: p.ExecuteJs) -> Outcome:
    code = args.code
    try:
        value = await _evaluate(ctx, code)
    except PlaywrightError as exc:
        if "Illegal return statement" not in exc.message:
            raise _script_error(exc) from exc
        # Written as a function body ("... return x"): run it as one.
        try:
            value = await _evaluate(ctx, f"async () => {{\n{code}\n}}")
        except PlaywrightError as again:
            raise _script_error(again) from again
    text = json.dumps(value, ensure_ascii=False, default=str)
    data: dict[str, Any] = {"result": text}
    if len(text) > JS_RESULT_MAX_CHARS:
        data = {"result": text[:JS_RESULT_MAX_CHARS], "truncated": True, "full_length": len(text)}
    return Outcome(data)


async def _evaluate(ctx: ActionContext, code: str) -> Any:
    try:
        async with asyncio.timeout(ctx.timeout_ms / 1000):
            return await ctx.page.evaluate(code)
    except TimeoutError as exc:
        stopped = await stop_page_scripts(ctx.page)
        raise ActionError(
            f"the script did not finish within {ctx.timeout_ms / 1000:g} s" + (" and was stopped" if stopped else ""),
            "return a value quickly; for something that takes time, use wait and read the page again",
        ) from exc


def _script_error(exc: PlaywrightError) -> ActionError:
    first = exc.message.strip().splitlines()[0] if exc.message.strip() else "error"
    first = re.sub(r"^Page\.evaluate: ", "", first)
    return ActionError(f"the script failed: {first}", "fix the script; it runs in the page like a console snippet")
