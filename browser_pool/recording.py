"""A run's recording: screencast frames of the active tab, kept at a low rate, to be watched again.

The recorder is a client of Playwright's screencast of the page, which shares one Chromium screencast among its
clients: while the run is traced (the trace's own screenshots come from that screencast), the recording costs the
browser nothing more than reading the frames it already captures. Alone, the recorder holds each frame's
acknowledgement until the frame's slot at `fps` has passed, so Chromium captures no more often than that. Chromium
still pays for each repaint it would send (a blinking caret in a focused field is two a second), so a run's recorder
records around its steps only (`settle_s`). A frame identical to the last one kept is not kept again, nor is a frame
of a page with a secret field (a password): the step's own picture, masked, stands for it. Frames stop being kept
past `max_bytes`; the recording says it was cut.

The live view is a screencast of Hive's own (its size and rate are a viewer's): a recording's pictures stay at their
own size, `spec`, whoever watches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection, Coroutine
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, ScreencastFrame, ScreencastSize

from browser_pool.errors import PoolError
from browser_pool.masks import live_frames
from browser_pool.screencast import HAS_SECRETS, jpeg_size
from browser_pool.session import Session

log = logging.getLogger(__name__)

# How long a fresh subscription keeps the screencast for its first picture, and how often it looks whether it came.
_FIRST_FRAME_WAIT_S = 10.0
_FIRST_FRAME_POLL_S = 0.05
# How long the frames of a page showing nothing secret in its own words may take to tell what they show.
FRAME_CHECK_S = 2.0


@dataclass(frozen=True, slots=True)
class FrameSpec:
    """The largest picture a recording keeps and its JPEG quality."""

    max_width: int
    max_height: int
    quality: int


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
    in all. The newest frame of an interval is kept at its end.

    With `settle_s`, it records only around steps: from each `wake()` (a step starts or ends) until `settle_s`
    after the last one, then lets the screencast go until the next wake. A page left alone between steps (while
    the model thinks) costs nothing then, even one that repaints a blinking caret; the next wake's first frame is
    the page as that wait left it (the screencast sends the current picture to a client that joins). A wake also
    moves the recording to the tab that is active then."""

    def __init__(
        self,
        session: Session,
        *,
        fps: float = 1.0,
        max_bytes: int = 20_000_000,
        settle_s: float | None = None,
        spec: FrameSpec | None = None,
        typed: Collection[str] = (),
    ) -> None:
        """`typed`: the secrets the recorded runs' starter typed into the session (a live set), left out of every
        frame of a page that shows one."""
        self.session = session
        self.typed = typed
        self.fps = fps
        self.spec = spec  # None: Playwright's default, the viewport scaled into 800x800 at quality 90
        self.max_bytes = max_bytes
        self.settle_s = settle_s
        self.recording = Recording()
        self._page: Page | None = None  # the page whose screencast this recorder is a client of
        self._pending: tuple[Page, RecordedFrame] | None = None
        self._last_kept = 0.0
        self._last_data = b""
        self._settle_timer: asyncio.TimerHandle | None = None
        self._awake_until = 0.0
        self._first_frame_due: float | None = None  # a subscription still waiting for its first picture
        self._stopped = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.left_out = 0  # frames of pages with a secret field
        self.delivered = 0  # frames the screencast delivered, kept or not
        self._switch = asyncio.Lock()  # one subscribe or unsubscribe at a time

    @property
    def capturing(self) -> bool:
        """Whether the recorder is a client of a page's screencast now (False while it rests between steps)."""
        return self._page is not None

    async def start(self) -> None:
        self._first_frame_due = time.monotonic() + _FIRST_FRAME_WAIT_S
        await self._subscribe()
        self._awake_until = time.monotonic() + (self.settle_s or 0.0)
        self._schedule_settle()

    def wake(self) -> None:
        """A step started or ended: record from now until `settle_s` after the last wake."""
        if self.settle_s is None or self._stopped:
            return
        self._awake_until = time.monotonic() + self.settle_s
        if self._page is None or self._page is not self._active_page():
            self._first_frame_due = time.monotonic() + _FIRST_FRAME_WAIT_S
            self._spawn(self._subscribe())
        self._schedule_settle()

    async def stop(self) -> Recording:
        """Stop recording; the frame waiting for its slot is kept first."""
        self._stopped = True
        if self._settle_timer is not None:
            self._settle_timer.cancel()
        while self._tasks:  # a subscription on its way, frames being kept
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._unsubscribe()
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        return self.recording

    def _active_page(self) -> Page | None:
        try:
            return self.session.active_page
        except PoolError:
            return None  # the session closed or its browser is gone: nothing to record

    async def _subscribe(self) -> None:
        async with self._switch:
            page = self._active_page()
            if self._stopped or page is None or page is self._page:
                return
            await self._release()
            size = ScreencastSize(width=self.spec.max_width, height=self.spec.max_height) if self.spec else None
            quality = self.spec.quality if self.spec else None

            async def on_frame(shot: ScreencastFrame) -> None:
                await self._on_frame(page, shot)

            await page.screencast.start(on_frame=on_frame, size=size, quality=quality)
            self._page = page

    async def _release(self) -> None:
        page, self._page = self._page, None
        if page is None:
            return
        try:
            await page.screencast.stop()
        except PlaywrightError:
            log.debug("the recording's screencast could not be stopped; the tab is probably closed")

    async def _unsubscribe(self) -> None:
        async with self._switch:
            await self._release()
            self._spawn_keep()  # the frame waiting for its slot

    def _schedule_settle(self) -> None:
        if self.settle_s is None or self._settle_timer is not None:
            return
        delay = max(0.0, self._awake_until - time.monotonic())
        self._settle_timer = asyncio.get_running_loop().call_later(delay, self._settled)

    def _settled(self) -> None:
        self._settle_timer = None
        now = time.monotonic()
        if now < self._awake_until:
            self._schedule_settle()  # woken again meanwhile
        elif self._first_frame_due is not None and now < self._first_frame_due:
            # A busy browser can send its first picture after the settle time; resting now would lose the page as
            # the wait left it, so the recorder rests once that picture came (or it never will).
            self._settle_timer = asyncio.get_running_loop().call_later(_FIRST_FRAME_POLL_S, self._settled)
        elif not self._stopped:
            self._spawn(self._unsubscribe())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work, name="recording")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_frame(self, page: Page, shot: ScreencastFrame) -> None:
        if page is not self._page:
            return  # a frame of a page the recording has moved away from
        self.delivered += 1
        self._first_frame_due = None
        data = shot["data"]
        width, height = jpeg_size(data) or (shot["viewportWidth"], shot["viewportHeight"])
        pending = self._pending = (page, RecordedFrame(data, width, height, int(shot["timestamp"])))
        wait = self._last_kept + 1.0 / self.fps - time.monotonic()
        if wait > 0:
            # Chromium captures the next picture once this one is acknowledged, which happens when this returns:
            # held until the slot, it captures no faster than the recording keeps (a trace sharing the screencast
            # acknowledges at its own rate, and a newer frame may come meanwhile: that one is kept instead).
            await asyncio.sleep(wait)
        if self._pending is pending:
            self._spawn_keep()

    def _spawn_keep(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        self._last_kept = time.monotonic()
        self._spawn(self._keep(*pending))

    async def _keep(self, page: Page, frame: RecordedFrame) -> None:
        if self.recording.truncated or frame.data == self._last_data:
            return
        if not await self._shows_no_secret(page, frame):
            return
        if self.recording.bytes + len(frame.data) > self.max_bytes:
            self.recording.truncated = True
            return
        self._last_data = frame.data
        self.recording.frames.append(frame)
        self.recording.bytes += len(frame.data)

    async def _shows_no_secret(self, page: Page, frame: RecordedFrame) -> bool:
        """Whether the frame's page has no secret field (a password) and shows no secret typed into the session back
        as text. A frame of a page that does is not kept: a masked screenshot per frame cost the browser more than
        the recording itself, and the step's own picture, masked, shows that page. The check runs after the capture:
        a frame of a document the tab has left since (it may have had one) is not kept either."""
        typed = self.typed
        try:
            # The page is asked for its text, never given the secrets: its own scripts could read what it is given.
            secrets, document_started_ms, shown = await page.evaluate(_CHECK, bool(typed))
            if typed and not secrets:
                seen = str(shown).casefold()
                secrets = any(text.casefold() in seen for text in typed) or await _frames_show(page, typed)
        except PlaywrightError:
            # The tab closed or navigated away under the check: a frame that cannot be checked is not kept.
            log.debug("recording frame dropped: its tab went away", exc_info=True)
            return False
        if secrets or document_started_ms > frame.ts_ms:
            self.left_out += 1
            return False
        return True


async def _frames_show(page: Page, typed: Collection[str]) -> bool:
    """Whether a frame of the page, at any depth, shows one of the `typed` secrets (a sign-in widget of another site
    greeting its user). A frame that cannot be read in time counts as showing one: its picture is not kept."""
    frames = live_frames(page)[1:]
    if not frames:
        return False
    try:
        async with asyncio.timeout(FRAME_CHECK_S):
            shown = await asyncio.gather(*(frame.evaluate(_SHOWN) for frame in frames))
    except (PlaywrightError, TimeoutError):
        log.debug("recording frame dropped: a frame of its page could not be read", exc_info=True)
        return True
    seen = "\n".join(str(text) for text in shown).casefold()
    return any(text.casefold() in seen for text in typed)


# What a document shows as text: its words and its fields' values.
_SHOWN = """() => [document.body ? document.body.innerText : "",
  ...[...document.querySelectorAll("input, textarea")].map((field) => field.value)].join("\\n")"""

# Whether the page has a secret field, when its document started (ms since the epoch), and, when asked, what it shows
# as text.
_CHECK = f"""(withText) => {{
  const shown = {_SHOWN};
  const secrets = ({HAS_SECRETS})();
  return [secrets, performance.timeOrigin, withText && !secrets ? shown() : ""];
}}"""
