"""Files a session's pages download (a link, a button, `Content-Disposition: attachment`, a blob or data URL): each is
bounded, taken out of the browser, handed to a keeper, and what became of it is told to the agent.

For each download of a session:
- the keeper (the pool's `on_download`; in Hive, the worker, which stores it with the conversation) gives it a
  `DownloadTicket`: how many bytes it may take (the size limit, or what is left of its user's quota) and where it
  goes once done;
- it is stopped as soon as it is known to be larger: when the response announces its length, or once more bytes
  arrived than allowed (Chromium's own count, `DownloadMeter`); a session has at most `DownloadLimits.in_flight`
  downloads at a time and each at most `timeout_s`;
- when done, it is measured again while it is copied out of the browser's folder (`copy_out`: never more than the
  limit is read), the ticket keeps the copy, and the browser's own copy is deleted;
- what became of it (kept, with how to read it, or refused and why) is said once: in the result of the action during
  which it began (the action waits up to `wait_s` for it), else in the next action's (`ActionResult.downloads`). A
  refusal is also told to the ticket, which tells the user.

Downloads travel like every other request of the session: through its context's network firewall (browser_pool.net).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from playwright.async_api import BrowserContext, Download
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.downloads.files import Copied, TooLargeError, UnsafeDownloadError, copy_out
from browser_pool.downloads.meter import DownloadMeter

log = logging.getLogger(__name__)

KEPT_REPORTS = 20  # outcomes kept for the next action; a page downloading in a loop is not remembered whole


@dataclass(frozen=True, slots=True)
class DownloadLimits:
    max_bytes: int = 50_000_000  # one download; a ticket may allow less (a quota), never more
    in_flight: int = 4  # downloads of one session at a time; past it a new one is stopped at once
    timeout_s: float = 300.0  # one download, from its start
    wait_s: float = 10.0  # how long an action waits for a download it started before it reports


@dataclass(frozen=True, slots=True)
class DownloadStart:
    url: str  # where it came from (a data: URL only as far as its media type)
    suggested_name: str  # as the browser suggests it: from the page or the response, not yet made safe


class DownloadRefusedError(Exception):
    """A ticket's keeper would not keep the file; the message says why, in words for the agent and the user."""


class DownloadTicket(Protocol):
    """One download in the keeper's hands."""

    @property
    def max_bytes(self) -> int:
        """What this download may take (the keeper's limit or what is left of a quota)."""

    @property
    def limit(self) -> str:
        """That limit in words, as in "larger than {limit}": "the 50 MB a download may be"."""

    async def keep(self, path: Path, size: int) -> str:
        """Keep the finished file (a private copy, removed after this returns); returns what the agent is told of
        it. Raises DownloadRefusedError to refuse it after all."""

    async def refused(self, message: str) -> None:
        """The download was not kept (too large, failed, stopped); `message` says so."""


DownloadCallback = Callable[[str, DownloadStart], Awaitable[DownloadTicket]]


def shown_url(url: str) -> str:
    """A data: URL carries the file itself: only its media type is worth keeping as where it came from."""
    if url.startswith("data:"):
        return url.split(",", 1)[0][:100]
    return url[:2000]


def size_text(size: int) -> str:
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def download_started(error: PlaywrightError) -> bool:
    """Whether a navigation failed because the address is a file the browser downloads instead of a page."""
    return "Download is starting" in error.message


class SessionDownloads:
    """The downloads of one session's context."""

    def __init__(
        self,
        key: str,
        context: BrowserContext,
        on_download: DownloadCallback,
        *,
        limits: DownloadLimits,
        meter: DownloadMeter | None = None,
    ) -> None:
        self.key = key
        self.limits = limits
        self._on_download = on_download
        self._meter = meter
        self._tasks = BackgroundTasks(f"downloads:{key}")
        self._running: dict[int, asyncio.Task[None]] = {}
        self._reports: deque[str] = deque(maxlen=KEPT_REPORTS)
        self.begun = 0
        self._began_event = asyncio.Event()
        context.on("download", self._began)
        _watched[context] = self

    def _began(self, download: Download) -> None:
        self.begun += 1
        self._began_event.set()
        number = self.begun
        task = self._tasks.spawn(self._handle(download), f"download-{number}")
        self._running[number] = task
        task.add_done_callback(lambda _task: self._running.pop(number, None))

    async def begun_after(self, mark: int, within_s: float) -> None:
        """Wait (at most `within_s`) for a download after the `mark`-th to begin."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within_s):
                while self.begun <= mark:
                    self._began_event.clear()
                    await self._began_event.wait()

    async def settled(self, since: int) -> None:
        """Wait (at most `wait_s`) for the downloads begun after the `since`-th to end; say which still run."""
        pending = [task for number, task in self._running.items() if number > since]
        if not pending:
            return
        _, still = await asyncio.wait(pending, timeout=self.limits.wait_s)
        if still:
            self._reports.append(f"{len(still)} download(s) still in progress; the next step says what became of them.")

    def take(self) -> list[str]:
        taken = list(self._reports)
        self._reports.clear()
        return taken

    async def close(self) -> None:
        await self._tasks.close()

    async def _handle(self, download: Download) -> None:
        start = DownloadStart(shown_url(download.url), download.suggested_filename)
        name = start.suggested_name or "the download"
        try:
            ticket = await self._on_download(self.key, start)
        except Exception:
            log.exception("the keeper of session %s's downloads failed", self.key)
            await _cancel(download)
            self._reports.append(f"{name} was not kept: downloads cannot be kept right now.")
            return
        if len(self._running) > self.limits.in_flight:
            await _cancel(download)
            already = self.limits.in_flight
            await self._refuse(ticket, f"{name} was not kept: {already} download(s) of this session were running.")
            return
        allowed = min(self.limits.max_bytes, ticket.max_bytes)
        try:
            message = await self._finish(download, name, allowed, ticket)
        except Exception:
            log.exception("session %s: keeping the download %r failed", self.key, name)
            message = f"{name} could not be kept (an error in Hive; it is logged)."
        if message:
            await self._refuse(ticket, message)

    async def _finish(self, download: Download, name: str, allowed: int, ticket: DownloadTicket) -> str:
        """Wait for the download within its bounds and hand it to the ticket; returns why it was not kept, or ""."""
        if allowed <= 0:
            await _cancel(download)
            return f"{name} was not kept: nothing is left of {ticket.limit}."
        too_large = asyncio.Event()
        seen = 0

        def progressed(expected: int, received: int) -> None:
            nonlocal seen
            seen = max(seen, expected, received)
            if seen > allowed:
                too_large.set()

        stop = self._meter.follow(download.url, download.suggested_filename, progressed) if self._meter else None
        try:
            async with asyncio.timeout(self.limits.timeout_s):
                ended = asyncio.ensure_future(download.failure())
                stopped = asyncio.ensure_future(too_large.wait())
                await asyncio.wait({ended, stopped}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
                if too_large.is_set():
                    ended.cancel()
                    await _cancel(download)
                    return f"{name} was not kept: it is {size_text(seen)}, larger than {ticket.limit}."
                failure = await ended
        except TimeoutError:
            await _cancel(download)
            return f"{name} was not kept: it took longer than {self.limits.timeout_s:g} s."
        finally:
            if stop is not None:
                stop()
        if failure is not None:
            return f"{name} could not be downloaded ({failure})."
        return await self._keep(download, name, allowed, ticket)

    async def _keep(self, download: Download, name: str, allowed: int, ticket: DownloadTicket) -> str:
        copied: Copied | None = None
        try:
            copied = await asyncio.to_thread(copy_out, await download.path(), allowed)
            self._reports.append(await ticket.keep(copied.path, copied.size))
            return ""
        except TooLargeError as exc:
            return f"{name} was not kept: it is {size_text(exc.at_least)}, larger than {ticket.limit}."
        except UnsafeDownloadError as exc:
            log.warning("session %s: download %r refused: %s", self.key, name, exc)
            return f"{name} was not kept: {exc}."
        except DownloadRefusedError as exc:
            return str(exc)
        except PlaywrightError as exc:  # the session closed under it
            return f"{name} could not be downloaded ({exc.message.splitlines()[0]})."
        finally:
            await _delete(download)
            if copied is not None:
                with contextlib.suppress(OSError):
                    os.unlink(copied.path)

    async def _refuse(self, ticket: DownloadTicket, message: str) -> None:
        self._reports.append(message)
        try:
            await ticket.refused(message)
        except Exception:
            log.exception("telling session %s of a refused download failed", self.key)


async def _cancel(download: Download) -> None:
    with contextlib.suppress(PlaywrightError):
        await download.cancel()
    await _delete(download)


async def _delete(download: Download) -> None:
    with contextlib.suppress(PlaywrightError):
        await download.delete()


_watched: weakref.WeakKeyDictionary[BrowserContext, SessionDownloads] = weakref.WeakKeyDictionary()
# How long a click on a download link may take to have its download announced (the browser does it after the click).
DOWNLOAD_ON_ITS_WAY_S = 3.0


def download_count(context: BrowserContext) -> int:
    """How many downloads the context's pages began so far (an action's mark)."""
    watched = _watched.get(context)
    return watched.begun if watched is not None else 0


async def downloads_since(context: BrowserContext, mark: int, *, expected: bool = False) -> list[str]:
    """What became of the context's downloads not yet told, after waiting for those begun since `mark`; `expected`:
    the action was one that downloads (a link with `download`), whose download a busy browser announces late."""
    watched = _watched.get(context)
    if watched is None:
        return []
    if expected:
        await watched.begun_after(mark, DOWNLOAD_ON_ITS_WAY_S)
    await watched.settled(mark)
    return watched.take()


__all__ = [
    "DownloadCallback",
    "DownloadLimits",
    "DownloadMeter",
    "DownloadRefusedError",
    "DownloadStart",
    "DownloadTicket",
    "SessionDownloads",
    "download_count",
    "download_started",
    "downloads_since",
    "shown_url",
    "size_text",
]
