"""Chromium's own count of each download's bytes, so a download past its limit is stopped while it runs.

Playwright tells when a download begins and when it ends, not how large it is. Chromium tells more on the DevTools
protocol: `Browser.downloadProgress` carries the expected size (when the response announced it) and the bytes
received so far. Those events go to a browser-wide DevTools session that asked for them with
`Browser.setDownloadBehavior(eventsEnabled)`; this one asks for them on the default browser context, which Hive never
uses (every session is a context of its own, whose behaviour Playwright set), and so hears every context's downloads
while changing none of them.

An announcement (`Browser.downloadWillBegin`) names the download by a guid, its address and suggested file name;
Playwright's `download` event gives the same address and name, so the two are paired by those, oldest first.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, CDPSession
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger(__name__)

# (expected bytes, 0 when the response did not say; bytes received so far)
Progress = Callable[[int, int], None]
_Key = tuple[str, str]  # (url, suggested file name)
_ENDED = ("completed", "canceled")


@dataclass(slots=True)
class _Follower:
    on_progress: Progress
    guid: str = ""


@dataclass  # no slots: Playwright keeps a wrapper on the object of each bound method it is handed
class DownloadMeter:
    """One browser's downloads as Chromium counts them; `follow` pairs a Playwright download with its count."""

    cdp: CDPSession | None = None
    _unclaimed: dict[_Key, deque[str]] = field(default_factory=dict)  # announced, nobody follows them yet
    _waiting: dict[_Key, deque[_Follower]] = field(default_factory=dict)  # followers not yet announced
    _followers: dict[str, _Follower] = field(default_factory=dict)
    _latest: dict[str, tuple[int, int]] = field(default_factory=dict)  # per guid not yet followed

    @classmethod
    async def attach(cls, browser: Browser) -> DownloadMeter:
        """The meter of `browser`; without DevTools events (an old Chromium) it counts nothing, and downloads are
        then only measured when they end."""
        meter = cls()
        try:
            cdp = await browser.new_browser_cdp_session()
            cdp.on("Browser.downloadWillBegin", meter._began)
            cdp.on("Browser.downloadProgress", meter._progressed)
            await cdp.send("Browser.setDownloadBehavior", {"behavior": "default", "eventsEnabled": True})
        except PlaywrightError as exc:
            log.warning("downloads are measured only when they end: Chromium's download events are off (%s)", exc)
            return meter
        meter.cdp = cdp
        return meter

    def follow(self, url: str, name: str, on_progress: Progress) -> Callable[[], None]:
        """Call `on_progress` with the download of `url` named `name` as its bytes arrive; returns the way to stop."""
        follower = _Follower(on_progress)
        key = (url, name)
        announced = self._unclaimed.get(key)
        if announced:
            self._claim(follower, announced.popleft())
            if not announced:
                del self._unclaimed[key]
        else:
            self._waiting.setdefault(key, deque()).append(follower)

        def stop() -> None:
            if follower.guid:
                self._followers.pop(follower.guid, None)
                return
            waiting = self._waiting.get(key)
            if waiting is not None and follower in waiting:
                waiting.remove(follower)
                if not waiting:
                    del self._waiting[key]

        return stop

    def _claim(self, follower: _Follower, guid: str) -> None:
        follower.guid = guid
        self._followers[guid] = follower
        latest = self._latest.pop(guid, None)
        if latest is not None:
            follower.on_progress(*latest)

    def _began(self, event: dict[str, Any]) -> None:
        key = (str(event.get("url", "")), str(event.get("suggestedFilename", "")))
        guid = str(event.get("guid", ""))
        waiting = self._waiting.get(key)
        if waiting:
            self._claim(waiting.popleft(), guid)
            if not waiting:
                del self._waiting[key]
        else:
            self._unclaimed.setdefault(key, deque()).append(guid)

    def _progressed(self, event: dict[str, Any]) -> None:
        guid = str(event.get("guid", ""))
        sizes = (int(event.get("totalBytes") or 0), int(event.get("receivedBytes") or 0))
        follower = self._followers.get(guid)
        if event.get("state") in _ENDED:
            self._forget(guid)
        elif follower is not None:
            follower.on_progress(*sizes)
        else:
            self._latest[guid] = sizes

    def _forget(self, guid: str) -> None:
        """An ended download: nothing of it is kept (downloads nobody follows must not pile up)."""
        self._followers.pop(guid, None)
        self._latest.pop(guid, None)
        for key, guids in list(self._unclaimed.items()):
            if guid in guids:
                guids.remove(guid)
                if not guids:
                    del self._unclaimed[key]

    @property
    def tracked(self) -> int:
        """How many downloads it holds anything of (for tests: ended ones are let go)."""
        return len(self._followers) + len(self._latest) + sum(len(g) for g in self._unclaimed.values())
