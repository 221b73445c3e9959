"""A run's recording: the live view's own screencast frames of the active tab, kept at a low rate, to be watched again.

The recorder is one more subscriber of the session's screencast, asking for `fps` frames a second; while nobody
else watches, Chromium encodes no more than that, and on a still page it encodes nothing (the screencast only
sends a frame when the page changed). A frame identical to the last one kept is not kept again. On a page with a
secret field (a password), the frame is replaced by a screenshot with those fields masked, as the step picture
does. Frames stop being kept past `max_bytes`; the recording says it was cut.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError

from browser_pool.errors import TabNotFoundError
from browser_pool.screencast import HAS_SECRETS, Frame, Subscription
from browser_pool.session import Session
from browser_pool.types import MASK_COLOR, secret_masks

log = logging.getLogger(__name__)

MASKED_QUALITY = 60


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """One kept picture: JPEG bytes, its size in pixels and when it was captured (ms since the epoch)."""

    data: bytes
    width: int
    height: int
    ts_ms: int


@dataclass(slots=True)
class Recording:
    frames: list[RecordedFrame] = field(default_factory=list)
    bytes: int = 0
    truncated: bool = False  # frames were left out past the size bound


class Recorder:
    """Keeps frames of `session`'s active tab from `start()` to `stop()`, at most `fps` a second and `max_bytes`
    in all. The newest frame of an interval is kept at its end, so the page's last look before it goes still is
    never lost."""

    def __init__(self, session: Session, *, fps: float = 1.0, max_bytes: int = 20_000_000) -> None:
        self.session = session
        self.fps = fps
        self.max_bytes = max_bytes
        self.recording = Recording()
        self._subscription: Subscription | None = None
        self._pending: Frame | None = None
        self._last_kept = 0.0
        self._last_data = b""
        self._timer: asyncio.TimerHandle | None = None
        self._keeping: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._subscription = await self.session.screencast.subscribe(self._on_frame, max_fps=self.fps)
        # A still page sends no frame: the page as the run found it is the recording's first picture.
        last = self.session.screencast.last_frame
        if last is not None:
            await self._on_frame(last)

    async def stop(self) -> Recording:
        """Stop recording; the frame waiting for its slot is kept first."""
        if self._subscription is not None:
            subscription, self._subscription = self._subscription, None
            await subscription.close()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._pending is not None:
            self._spawn_keep()
        if self._keeping:
            await asyncio.gather(*self._keeping, return_exceptions=True)
        return self.recording

    async def _on_frame(self, frame: Frame) -> None:
        self._pending = frame
        if self._timer is not None:
            return
        wait = self._last_kept + 1.0 / self.fps - time.monotonic()
        if wait <= 0:
            self._spawn_keep()
        else:
            self._timer = asyncio.get_running_loop().call_later(wait, self._spawn_keep)

    def _spawn_keep(self) -> None:
        self._timer = None
        frame, self._pending = self._pending, None
        if frame is None:
            return
        self._last_kept = time.monotonic()
        task = asyncio.get_running_loop().create_task(self._keep(frame), name="recording:keep")
        self._keeping.add(task)
        task.add_done_callback(self._keeping.discard)

    async def _keep(self, frame: Frame) -> None:
        if self.recording.truncated or frame.data == self._last_data:
            return
        data = await self._masked(frame)
        if data is None:
            return
        if self.recording.bytes + len(data) > self.max_bytes:
            self.recording.truncated = True
            return
        self._last_data = frame.data
        self.recording.frames.append(RecordedFrame(data, frame.width, frame.height, frame.ts_ms))
        self.recording.bytes += len(data)

    async def _masked(self, frame: Frame) -> bytes | None:
        """The frame, or a masked screenshot of its page when the page has a secret field; None when the tab is
        gone."""
        try:
            page = self.session.tabs.get(frame.tab_id).page
            if not await page.evaluate(HAS_SECRETS):
                return frame.data
            return await page.screenshot(type="jpeg", quality=MASKED_QUALITY, caret="initial", timeout=5_000,
                                         mask=secret_masks(page), mask_color=MASK_COLOR)  # fmt: skip
        except (PlaywrightError, TabNotFoundError):
            # The tab closed or navigated away under the check: a frame that cannot be checked is not kept.
            log.debug("recording frame dropped: its tab went away", exc_info=True)
            return None
