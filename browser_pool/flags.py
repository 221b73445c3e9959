"""Chromium's feature switches, merged with Playwright's own.

Chromium keeps only the last `--enable-features` and the last `--disable-features` on its command line. Playwright
passes its own (they keep Chromium from asking Google for account lists, network time, optimization hints …), so a
switch of ours would silently drop them: with `--enable-features=WebMCP` alone Chromium asks accounts.google.com at
start, and `--disable-features=AutofillServerCommunication` alone brings back the network-time query. Playwright does
not say which switches it passes, so the pool reads them from the first browser's command line (`/proc/<pid>/cmdline`),
then launches with the union and leaves Playwright's own out (`ignore_default_args`). The answer is kept for later
launches in the same process.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserType

ENABLE = "--enable-features="
DISABLE = "--disable-features="
# WebMCP is behind a feature flag in Chromium 146+.
ENABLED = ("WebMCP",)
# A page with form fields makes Chromium ask content-autofill.googleapis.com what the fields are; the network
# firewall refuses that, and every form page would report requests blocked that the page never made.
DISABLED = ("AutofillServerCommunication",)


def own_switches() -> tuple[str, ...]:
    return (ENABLE + ",".join(ENABLED), DISABLE + ",".join(DISABLED))


@dataclass(frozen=True, slots=True)
class FeatureSwitches:
    leave_out: tuple[str, ...]  # Playwright's own switches, exactly as it passes them
    switches: tuple[str, ...]  # the union of theirs and ours

    def launch_args(self, args: list[str]) -> list[str]:
        return [a for a in args if not a.startswith((ENABLE, DISABLE))] + list(self.switches)


def merge(command_line: list[str]) -> FeatureSwitches | None:
    """From a browser launched with our switches after Playwright's: the switches to launch with instead, or None when
    nothing of Playwright's was dropped."""
    ours = set(own_switches())
    theirs = [a for a in command_line if a.startswith((ENABLE, DISABLE)) and a not in ours]
    if not theirs:
        return None
    switches = []
    for prefix, wanted in ((ENABLE, ENABLED), (DISABLE, DISABLED)):
        names: list[str] = []
        for arg in theirs:
            if arg.startswith(prefix):
                names += [n for n in arg[len(prefix) :].split(",") if n and n not in names]
        names += [n for n in wanted if n not in names]
        switches.append(prefix + ",".join(names))
    return FeatureSwitches(tuple(theirs), tuple(switches))


def command_line(pid: int | None) -> list[str]:
    """A process's arguments ([] when they cannot be read)."""
    if pid is None:
        return []
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


# Playwright's feature switches merged with ours, learned from the first launch in this process.
_learned: FeatureSwitches | None = None


async def browser_pid(browser: Browser) -> int | None:
    """The browser process's id: Playwright keeps it to itself; Chromium tells it over CDP."""
    cdp = await browser.new_browser_cdp_session()
    try:
        info = await cdp.send("SystemInfo.getProcessInfo")
    finally:
        await cdp.detach()
    return next((int(p["id"]) for p in info.get("processInfo", []) if p.get("type") == "browser"), None)


async def launch(chromium: BrowserType, *, args: list[str], **options: Any) -> Browser:
    """Chromium launched with `args` and the feature switches merged (see above); every launch goes through here."""
    global _learned
    known = _learned
    browser = await chromium.launch(
        args=known.launch_args(args) if known else args,
        ignore_default_args=list(known.leave_out) if known else None,
        **options,
    )
    if known is None:
        merged = merge(command_line(await browser_pid(browser)))
        if merged is not None:  # ours replaced Playwright's feature switches: launch again with both
            _learned = merged
            await browser.close()
            return await launch(chromium, args=args, **options)
    return browser
