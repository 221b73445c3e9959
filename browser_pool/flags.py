"""Launching Chromium: through the sandbox plan (browser_pool.sandbox), with its feature switches merged with
Playwright's own.

Chromium keeps only the last `--enable-features` and the last `--disable-features` on its command line. Playwright
passes its own (they keep Chromium from asking Google for account lists, network time, optimization hints …), so a
switch of ours would silently drop them: with `--enable-features=WebMCP` alone Chromium asks accounts.google.com at
start, and `--disable-features=AutofillServerCommunication` alone brings back the network-time query. Playwright does
not say which switches it passes, so the pool reads them once from the command line Playwright gives a stand-in for
Chromium (else from the first browser's, `/proc/<pid>/cmdline`), then launches with the union and leaves Playwright's
own out (`ignore_default_args`). The answer is kept for later launches in the same process.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import Browser, BrowserType
from playwright.async_api import Error as PlaywrightError

from browser_pool.sandbox import command_line, explain_launch_failure, plan_launch, sweep_leftovers

if TYPE_CHECKING:
    from browser_pool.config import BrowserConfig

log = logging.getLogger(__name__)

ENABLE = "--enable-features="
DISABLE = "--disable-features="
# WebMCP is behind a feature flag in Chromium 146+.
ENABLED = ("WebMCP",)
# A page with form fields makes Chromium ask content-autofill.googleapis.com what the fields are; the network
# firewall refuses that, and every form page would report requests blocked that the page never made.
# Headless Chromium builds a whole browser window for every context, and each window loads the address bar's
# drop-down as a web page of its own (chrome://omnibox-popup.top-chrome) in a renderer of its own, though nobody ever
# opens it: about 1.5 s of CPU per new context, three quarters of what a context costs.
UNSEEN_WINDOW_PAGES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
DISABLED = ("AutofillServerCommunication", *UNSEEN_WINDOW_PAGES)


def own_switches() -> tuple[str, ...]:
    return (ENABLE + ",".join(ENABLED), DISABLE + ",".join(DISABLED))


def _names(switches: list[str], prefix: str) -> list[str]:
    names: list[str] = []
    for switch in switches:
        if switch.startswith(prefix):
            names += [n for n in switch[len(prefix) :].split(",") if n and n not in names]
    return names


@dataclass(frozen=True, slots=True)
class FeatureSwitches:
    leave_out: tuple[str, ...]  # Playwright's own switches, exactly as it passes them

    def launch_args(self, args: list[str]) -> list[str]:
        """`args` with their feature switches merged into Playwright's (which are then left out of its own)."""
        ours = [a for a in args if a.startswith((ENABLE, DISABLE))]
        switches = []
        for prefix in (ENABLE, DISABLE):
            names = _names(list(self.leave_out), prefix)
            names += [n for n in _names(ours, prefix) if n not in names]
            if names:
                switches.append(prefix + ",".join(names))
        return [a for a in args if not a.startswith((ENABLE, DISABLE))] + switches


def merge(command_line: list[str], args: list[str]) -> FeatureSwitches | None:
    """From a browser launched with `args` after Playwright's switches: Playwright's feature switches to merge ours
    with, or None when none of theirs was dropped."""
    ours = set(args)
    theirs = [a for a in command_line if a.startswith((ENABLE, DISABLE)) and a not in ours]
    return FeatureSwitches(tuple(theirs)) if theirs else None


# Playwright's feature switches, learned from the first launch in this process.
_learned: FeatureSwitches | None = None


async def browser_pid(browser: Browser) -> int | None:
    """The browser process's id: Playwright keeps it to itself; Chromium tells it over CDP."""
    cdp = await browser.new_browser_cdp_session()
    try:
        info = await cdp.send("SystemInfo.getProcessInfo")
    finally:
        await cdp.detach()
    return next((int(p["id"]) for p in info.get("processInfo", []) if p.get("type") == "browser"), None)


async def launch(
    chromium: BrowserType, config: BrowserConfig, *, args: list[str] | None = None, **options: Any
) -> Browser:
    """Chromium as `config` says, with its sandbox, as an unprivileged user (browser_pool.sandbox) and the feature
    switches merged (see above); every launch goes through here. `args` replaces `config.args`."""
    # What browsers killed with an earlier worker left behind goes before another browser starts; tidying up never
    # keeps one from starting.
    try:
        await asyncio.to_thread(sweep_leftovers)
    except Exception:
        log.warning("the folders of killed browsers could not be removed", exc_info=True)
    plan = plan_launch(
        config.executable_path, browser_user=config.browser_user, allow_no_sandbox=config.allow_no_sandbox
    )
    try:
        browser = await _launch_merged(
            chromium,
            args=config.args if args is None else args,
            executable_path=plan.executable_path,
            chromium_sandbox=plan.chromium_sandbox,
            env=plan.env,
            downloads_path=plan.downloads_path,
            traces_dir=plan.traces_path,
            headless=config.headless,
            **options,
        )
    except PlaywrightError as exc:
        plan.discard()
        refused = explain_launch_failure(exc.message, plan)
        if refused is not None:
            raise refused from exc
        raise
    browser.on("disconnected", lambda _browser: plan.discard())
    return browser


# Stands in for Chromium once: writes down the command line Playwright starts it with, and exits.
_STAND_IN = """#!/bin/sh
printf '%s\\0' "$@" > "$HIVE_SWITCHES_FILE"
"""


async def _switches_of_a_stand_in(chromium: BrowserType, args: list[str]) -> list[str]:
    """The command line Playwright would start Chromium with, read from a stand-in that writes it down and exits,
    so no browser is started twice to learn it ([] when it cannot be read)."""
    with tempfile.TemporaryDirectory(prefix="hive-switches-") as folder:
        stand_in, written = Path(folder) / "chromium", Path(folder) / "command-line"
        stand_in.write_text(_STAND_IN)
        stand_in.chmod(0o700)
        try:
            browser = await chromium.launch(
                args=args, executable_path=str(stand_in), env={"HIVE_SWITCHES_FILE": str(written)}, timeout=10_000
            )
        except PlaywrightError:
            pass  # the stand-in exits at once: the launch fails, as it should
        else:
            await browser.close()
        try:
            return written.read_bytes().decode(errors="replace").split("\0")
        except OSError:
            return []


async def _launch_merged(chromium: BrowserType, *, args: list[str], **options: Any) -> Browser:
    global _learned
    if _learned is None:
        _learned = merge(await _switches_of_a_stand_in(chromium, args), args)
    known = _learned
    browser = await chromium.launch(
        args=known.launch_args(args) if known else args,
        ignore_default_args=list(known.leave_out) if known else None,
        **options,
    )
    if known is None:
        merged = merge(command_line(await browser_pid(browser)), args)
        if merged is not None:  # ours replaced Playwright's feature switches: launch again with both
            _learned = merged
            await browser.close()
            return await _launch_merged(chromium, args=args, **options)
    return browser
