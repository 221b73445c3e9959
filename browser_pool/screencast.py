"""Live view of a session's active tab: CDP screencast frames, capped in rate, fanned out to subscribers.

Each subscriber owns a one-frame slot and a delivery task. The producer only ever overwrites slots, so a slow
subscriber (a viewer on a bad connection) drops frames it could not take in time and never delays the producer or
the other subscribers. Frames are acknowledged to Chromium only when they are published, which paces Chromium's own
encoding to the frame-rate cap instead of letting it encode frames nobody will see.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.masks import masked_screenshot
from browser_pool.page_cdp import forget_page_cdp, page_cdp
from browser_pool.types import SECRET_FIELDS

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Frame:
    """One JPEG picture of a tab's viewport. ``width``/``height`` are the picture's pixels, ``ts_ms`` its capture time."""

    data: bytes
    width: int
    height: int
    tab_id: str
    ts_ms: int


@dataclass(frozen=True, slots=True)
class ScreencastOptions:
    max_fps: float = 12.0
    quality: int = 60
    max_width: int = 1280
    max_height: int = 800


FrameHandler = Callable[[Frame], Awaitable[None]]
# Returns the id of the tab to stream and a CDP session attached to its page.
TargetGetter = Callable[[], Awaitable[tuple[str, CDPSession]]]

_START_ATTEMPTS = 40
_START_RETRY_S = 0.05
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's start-of-frame header, or None when the data is not a readable JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker in _SOF_MARKERS:
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return width, height
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
    return None


class LatestFrameSlot:
    """Holds at most one frame: putting a new one replaces (drops) an untaken one."""

    def __init__(self) -> None:
        self._frame: Frame | None = None
        self._ready = asyncio.Event()
        self.dropped = 0

    def put(self, frame: Frame) -> None:
        if self._frame is not None:
            self.dropped += 1
        self._frame = frame
        self._ready.set()

    async def take(self) -> Frame:
        while self._frame is None:
            self._ready.clear()
            await self._ready.wait()
        frame, self._frame = self._frame, None
        return frame


class Subscription:
    """One subscriber's delivery: its slot, its task, and counts of what it got and missed."""

    def __init__(self, screencast: Screencast, handler: FrameHandler) -> None:
        self._screencast = screencast
        self._handler = handler
        self._slot = LatestFrameSlot()
        self.delivered = 0
        self.failed = 0
        self._task = asyncio.get_running_loop().create_task(self._deliver(), name="screencast:subscriber")

    @property
    def dropped(self) -> int:
        return self._slot.dropped

    @property
    def active(self) -> bool:
        return not self._task.done()

    def offer(self, frame: Frame) -> None:
        self._slot.put(frame)

    async def close(self) -> None:
        await self._screencast.unsubscribe(self)

    def cancel(self) -> None:
        self._task.cancel()

    async def _deliver(self) -> None:
        while True:
            frame = await self._slot.take()
            try:
                await self._handler(frame)
            except Exception:
                # A failing subscriber loses this frame, not the stream; closing it is the owner's decision.
                self.failed += 1
                log.log(logging.ERROR if self.failed == 1 else logging.DEBUG, "screencast subscriber failed",
                        exc_info=True)  # fmt: skip
            else:
                self.delivered += 1


class Screencast:
    """Streams the active tab while anyone is subscribed. Call `follow_active()` when the active tab changes."""

    def __init__(self, target: TargetGetter, options: ScreencastOptions | None = None) -> None:
        self._target = target
        self.options = options or ScreencastOptions()
        self._subscribers: list[Subscription] = []
        self._lock = asyncio.Lock()
        self._cdp: CDPSession | None = None
        self._tab_id: str | None = None
        self._pending: Frame | None = None
        self._unacked: list[tuple[CDPSession, int]] = []
        self._flush_timer: asyncio.TimerHandle | None = None
        self._last_publish = 0.0
        self._tasks = BackgroundTasks("screencast")
        self.last_frame: Frame | None = None
        self.frames_published = 0
        self.bytes_published = 0

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    @property
    def running(self) -> bool:
        return self._cdp is not None

    @property
    def tab_id(self) -> str | None:
        return self._tab_id

    async def subscribe(self, handler: FrameHandler) -> Subscription:
        """Deliver frames to ``handler`` until the subscription is closed. The first subscriber starts the stream."""
        subscription = Subscription(self, handler)
        self._subscribers.append(subscription)
        async with self._lock:
            if self._cdp is None:
                try:
                    await self._start()
                except BaseException:
                    self._subscribers.remove(subscription)
                    subscription.cancel()
                    raise
            elif self.last_frame is not None and self.last_frame.tab_id == self._tab_id:
                # A static page produces no new frames; a late joiner still needs a picture now.
                subscription.offer(self.last_frame)
        return subscription

    async def unsubscribe(self, subscription: Subscription) -> None:
        """Stop delivering to one subscriber; the last one leaving stops the stream."""
        if subscription in self._subscribers:
            self._subscribers.remove(subscription)
        subscription.cancel()
        if not self._subscribers:
            async with self._lock:
                if not self._subscribers:
                    await self._stop()

    async def follow_active(self) -> None:
        """Move the stream to the tab that is active now, if it is streaming another one."""
        async with self._lock:
            # Wanted while anyone watches, even if the last start failed: a tab change is a fresh chance.
            if not self._subscribers:
                return
            tab_id, _ = await self._target()
            if tab_id != self._tab_id or self._cdp is None:
                await self._stop()
                await self._start()

    async def close(self) -> None:
        """End every subscription and stop streaming."""
        self.abort()
        async with self._lock:
            await self._stop()

    def abort(self) -> None:
        """Drop subscribers and pending work without talking to the browser (it may be gone)."""
        for subscription in self._subscribers:
            subscription.cancel()
        self._subscribers.clear()
        self._tasks.cancel_all()
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None

    async def _start(self) -> None:
        tab_id, cdp = await self._target()
        self._cdp, self._tab_id = cdp, tab_id
        cdp.on("Page.screencastFrame", self._on_frame)
        params = {
            "format": "jpeg",
            "quality": self.options.quality,
            "maxWidth": self.options.max_width,
            "maxHeight": self.options.max_height,
        }
        for attempt in range(_START_ATTEMPTS):
            try:
                await cdp.send("Page.startScreencast", params)
                return
            except PlaywrightError as exc:
                # A tab that was just opened is still swapping in its first real document for a moment.
                if "Not attached to an active page" not in exc.message or attempt == _START_ATTEMPTS - 1:
                    cdp.remove_listener("Page.screencastFrame", self._on_frame)
                    self._cdp = None
                    raise
                await asyncio.sleep(_START_RETRY_S)

    async def _stop(self) -> None:
        cdp, self._cdp = self._cdp, None
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        self._pending = None
        self._unacked.clear()
        if cdp is None:
            return
        cdp.remove_listener("Page.screencastFrame", self._on_frame)
        try:
            await cdp.send("Page.stopScreencast")
        except PlaywrightError:
            log.debug("stopScreencast failed; the tab is probably closed")

    def frame_since(self, tab_id: str, since_ms: float) -> Frame | None:
        """The newest frame of `tab_id` captured at or after `since_ms` (time.time() in ms), published or not."""
        for frame in (self._pending, self.last_frame):
            if frame is not None and frame.tab_id == tab_id and frame.ts_ms >= since_ms:
                return frame
        return None

    def _on_frame(self, event: dict[str, Any]) -> None:
        cdp, tab_id = self._cdp, self._tab_id
        if cdp is None or tab_id is None:
            return
        data = base64.b64decode(event["data"])
        metadata = event.get("metadata") or {}
        size = jpeg_size(data) or (int(metadata.get("deviceWidth", 0)), int(metadata.get("deviceHeight", 0)))
        captured = metadata.get("timestamp")
        ts_ms = int(captured * 1000) if isinstance(captured, int | float) else int(time.time() * 1000)
        self._pending = Frame(data=data, width=size[0], height=size[1], tab_id=tab_id, ts_ms=ts_ms)
        self._unacked.append((cdp, int(event["sessionId"])))
        if self._flush_timer is None:
            interval = 1.0 / self.options.max_fps if self.options.max_fps > 0 else 0.0
            delay = max(0.0, self._last_publish + interval - time.monotonic())
            self._flush_timer = asyncio.get_running_loop().call_later(delay, self._flush)

    def _flush(self) -> None:
        """Publish the newest frame (older ones arrived within the same interval and are skipped)."""
        self._flush_timer = None
        frame, self._pending = self._pending, None
        if frame is None:
            return
        self._last_publish = time.monotonic()
        self.last_frame = frame
        self.frames_published += 1
        self.bytes_published += len(frame.data)
        for subscription in self._subscribers:
            subscription.offer(frame)
        acks, self._unacked = self._unacked, []
        for cdp, ack_id in acks:
            self._tasks.spawn(self._ack(cdp, ack_id), "ack")

    async def _ack(self, cdp: CDPSession, ack_id: int) -> None:
        try:
            await cdp.send("Page.screencastFrameAck", {"sessionId": ack_id})
        except PlaywrightError:
            log.debug("frame ack failed; the tab is probably closed")


# Open shadow roots too, as the screenshot's mask reaches into them: a password field in a web component counts.
HAS_SECRETS = f"""() => {{
  const has = (root) => root.querySelector({SECRET_FIELDS!r}) !== null
    || [...root.querySelectorAll("*")].some((el) => el.shadowRoot && has(el.shadowRoot));
  return has(document);
}}"""


async def step_picture(
    page: Page,
    *,
    quality: int = 60,
    timeout_ms: float = 5_000,
    live: tuple[Screencast, str] | None = None,
    since_ms: float | None = None,
    hidden: Collection[str] = (),
) -> bytes:
    """The JPEG kept with a step: the live view's own frame of the page when it was captured after the step ended
    (`live`: the session's screencast and the page's tab id; `since_ms`: when the step ended, time.time() in ms) and
    the page has no secret field, else a screenshot. The screenshot masks secret fields only where the page has one
    (the mask costs a restyle and paint even when nothing matches), and leaves the caret as it is (hiding it restyles
    the page first): about 10-20 ms of the browser's CPU less per step than a masked screenshot. `hidden`: secrets
    filled in earlier, covered wherever the page shows one as text (always a masked screenshot then: the live frame
    shows them)."""
    secrets = bool(hidden) or bool(await page.evaluate(HAS_SECRETS))
    if live is not None and since_ms is not None and not secrets:
        screencast, tab_id = live
        frame = screencast.frame_since(tab_id, since_ms)
        if frame is not None:
            return frame.data
    if secrets:
        return await masked_screenshot(page, hidden, type="jpeg", quality=quality, caret="initial", timeout=timeout_ms)
    cdp = page_cdp(page)
    if cdp is not None:
        # One protocol message where Playwright's screenshot sends five (preparing the page, waiting for its fonts,
        # measuring the viewport, the capture, cleaning up): the same picture of the viewport for less CPU. A page too
        # busy to be pictured in time is not asked twice (the timeout propagates); a session that broke is dropped.
        try:
            async with asyncio.timeout(timeout_ms / 1000 if timeout_ms > 0 else None):
                shot = await cdp.send("Page.captureScreenshot", {"format": "jpeg", "quality": quality})
            return base64.b64decode(shot["data"])
        except PlaywrightError:
            forget_page_cdp(page, cdp)
    return await page.screenshot(type="jpeg", quality=quality, caret="initial", timeout=timeout_ms)
