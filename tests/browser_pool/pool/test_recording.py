"""A run's recording: the page's screencast frames kept at a low rate while the page changes, resting between steps
and waking with the page as it was left, on the tab active then, nothing kept twice, pages with a password field left
out, a size bound, pictures of its own size whoever watches live, sharing the screencast a trace already runs."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image
from playwright.async_api import Page

from browser_pool.pool import BrowserPool
from browser_pool.recording import FrameSpec, RecordedFrame, Recorder
from browser_pool.screencast import Frame
from browser_pool.session import Session
from tests.support.waiting import eventually

from .conftest import running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

BLOCK = "<style>html,body{margin:0}#b{width:100vw;height:100vh;background:rgb(200,0,0)}</style><div id=b></div>"
# Repaints the block every 50 ms, `changes` times, then paints it blue for good.
ANIMATE = """(changes) => new Promise((done) => {
  let n = 0;
  const timer = setInterval(() => {
    document.getElementById("b").style.background = n % 2 ? "rgb(200,0,0)" : "rgb(0,160,0)";
    if (++n >= changes) { clearInterval(timer); document.getElementById("b").style.background = "rgb(0,0,200)"; done(); }
  }, 50);
})"""
# Paints the block a new colour every 50 ms, `changes` times: no two frames alike, whenever they are taken.
SHADES = """(changes) => new Promise((done) => {
  let n = 0;
  const timer = setInterval(() => {
    document.getElementById("b").style.background = `rgb(${(n * 37) % 256},${(n * 91) % 256},120)`;
    if (++n >= changes) { clearInterval(timer); done(); }
  }, 50);
})"""
# Resolves once the browser has drawn a frame after the last change (the blue the animation ends on is on screen).
PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Green, a colour no other page here shows: a blank frame between two documents (white) is not this page.
PASSWORD_PAGE = (
    "<style>html,body{margin:0;background:rgb(0,200,0)}input{position:absolute;left:100px;top:100px;width:400px;"
    "height:80px;font-size:40px;border:0;background:rgb(0,200,0)}</style><input type=password value=hunter2>"
)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with running_pool(max_sessions=2, warm_contexts=0) as (started, _events):
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session(pool: BrowserPool, request: pytest.FixtureRequest) -> AsyncIterator[Session]:
    async with pool.lease(request.node.name) as leased:
        yield leased
    await pool.close_session(request.node.name, save=False)


async def show(page: Page, html: str) -> None:
    """Load `html` and wait until the browser has drawn it (a screencast started earlier would see the blank page)."""
    await page.set_content(html)
    await page.evaluate(PAINTED)


def _pixel(frame: RecordedFrame, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) of the page's viewport (fractions of its width and height)."""
    image = Image.open(io.BytesIO(frame.data)).convert("RGB")
    red, green, blue = image.getpixel((int(x * image.width), int(y * image.height)))  # type: ignore[misc]
    return red, green, blue


def _near(colour: tuple[int, int, int], wanted: tuple[int, int, int], slack: int = 40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, wanted, strict=True))


async def test_a_changing_page_is_kept_at_the_low_rate(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=2.0)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the page as the recording found it")
    began = time.monotonic()
    await page.evaluate(ANIMATE, 40)  # 2 s of repaints, 20 a second (longer on a busy machine)
    await page.evaluate(PAINTED)
    recording = await recorder.stop()
    animated_s = time.monotonic() - began

    # At 2 a second while the page changes, not the 40 repaints nor the live view's 12 a second.
    assert 2 <= len(recording.frames) <= 2 * animated_s + 3, ([f.ts_ms for f in recording.frames], animated_s)
    assert _near(_pixel(recording.frames[0], 0.5, 0.5), (200, 0, 0))
    assert recording.bytes == sum(len(f.data) for f in recording.frames)
    assert not recorder.capturing, "stopping the recording stops its screencast"


async def test_around_steps_it_rests_between_them_and_wakes_with_the_page_as_it_was_left(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=2.0, settle_s=0.3)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the page as the recording found it")
    await eventually(lambda: not recorder.capturing, what="the recorder resting")

    await page.evaluate(ANIMATE, 20)  # the page changes while no step runs: nothing is captured
    await page.evaluate(PAINTED)
    assert len(recorder.recording.frames) == 1

    recorder.wake()  # the next step starts
    await eventually(lambda: len(recorder.recording.frames) == 2, what="a frame at the wake")
    assert _near(_pixel(recorder.recording.frames[-1], 0.5, 0.5), (0, 0, 200)), "the page as the wait left it"
    recording = await recorder.stop()
    assert len(recording.frames) == 2


async def test_a_still_page_is_kept_once(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=4.0)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the first frame")
    # A repaint to the same colour makes Chromium send a frame again; the recording keeps no copy of it.
    await page.evaluate("document.getElementById('b').style.background = 'rgb(200,0,0)'")
    await page.evaluate("document.body.offsetHeight")
    recording = await recorder.stop()
    assert len(recording.frames) == 1


async def test_a_page_with_a_password_field_is_left_out_of_the_recording(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=4.0)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="a frame of the plain page")
    await page.set_content(PASSWORD_PAGE)
    await eventually(lambda: recorder.left_out >= 1, what="a frame of the form left out")
    await page.set_content(BLOCK.replace("rgb(200,0,0)", "rgb(0,0,200)"))
    await eventually(lambda: len(recorder.recording.frames) >= 2, what="a frame of the next plain page")
    recording = await recorder.stop()
    # The live view showed the form; the recording did not keep it (the step's masked picture stands for it).
    assert [_near(_pixel(f, 0.9, 0.9), (0, 200, 0), 10) for f in recording.frames] == [False] * len(recording.frames)
    assert _near(_pixel(recording.frames[-1], 0.5, 0.5), (0, 0, 200))


async def test_a_page_showing_a_typed_secret_back_is_left_out_of_the_recording(session: Session) -> None:
    """A secret Hive typed into the session is kept out wherever a page shows it: in its words, whatever their case,
    in a field of another page, or in a frame."""
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=4.0, typed={"Hunter2-secret"})
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="a frame of the plain page")
    for shows_it in (
        "<p>Signed in as HUNTER2-SECRET</p>",
        "<input value=hunter2-secret>",
        "<iframe srcdoc='<iframe srcdoc=\"<p>Signed in as Hunter2-secret</p>\"></iframe>'></iframe>",
    ):
        left_out = recorder.left_out
        await page.set_content(PASSWORD_PAGE.replace("<input type=password value=hunter2>", shows_it))
        await eventually(lambda: recorder.left_out > left_out, what="a frame of the page left out")  # noqa: B023
    # A page whose frame shows nothing secret is kept.
    harmless_frame = "<iframe srcdoc='<p>Nothing to hide</p>' style='position:fixed;top:0;left:0'></iframe>"
    await page.set_content(BLOCK.replace("rgb(200,0,0)", "rgb(0,0,200)") + harmless_frame)
    await eventually(lambda: len(recorder.recording.frames) >= 2, what="a frame of the next plain page")
    recording = await recorder.stop()
    assert [_near(_pixel(f, 0.9, 0.9), (0, 200, 0), 10) for f in recording.frames] == [False] * len(recording.frames)
    assert _near(_pixel(recording.frames[-1], 0.5, 0.5), (0, 0, 200))


async def test_frames_past_the_size_bound_are_left_out_and_the_recording_says_so(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=5.0)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the first frame")
    bound = recorder.max_bytes = recorder.recording.bytes * 3  # room for about three frames of the block
    await page.evaluate(SHADES, 40)
    await eventually(lambda: recorder.recording.truncated, what="the bound reached")
    recording = await recorder.stop()
    assert recording.truncated
    assert 0 < recording.bytes <= bound


async def test_its_pictures_keep_their_own_size_while_someone_watches_live(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=4.0, spec=FrameSpec(400, 250, 40))
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the page as the recording found it")

    seen: list[Frame] = []

    async def watch(frame: Frame) -> None:
        seen.append(frame)

    viewer = await session.screencast.subscribe(watch)  # someone opens the live view
    await page.evaluate(ANIMATE, 10)
    await page.evaluate(PAINTED)
    await eventually(lambda: any(f.width == 1280 for f in seen), what="the live view's own size")
    await eventually(lambda: len(recorder.recording.frames) >= 2, what="the animation recorded")
    await viewer.close()
    recording = await recorder.stop()
    assert {(f.width, f.height) for f in recording.frames} == {(400, 250)}, "the recording's own size, page's shape"


async def test_a_wake_moves_the_recording_to_the_tab_active_then(session: Session) -> None:
    await show(session.active_page, BLOCK)
    recorder = Recorder(session, fps=4.0, settle_s=5.0)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the first tab recorded")

    opened = await session.open_tab()
    await session.switch_tab(opened.id)
    await show(session.active_page, BLOCK.replace("rgb(200,0,0)", "rgb(0,0,200)"))
    recorder.wake()  # the step that switched tabs ends
    await eventually(
        lambda: _near(_pixel(recorder.recording.frames[-1], 0.5, 0.5), (0, 0, 200)), what="the new tab recorded"
    )
    recording = await recorder.stop()
    assert _near(_pixel(recording.frames[0], 0.5, 0.5), (200, 0, 0))


async def test_a_traced_run_is_recorded_from_the_screencast_the_trace_already_runs(session: Session) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=2.0, spec=FrameSpec(400, 250, 40))
    await recorder.start()
    await session.context.tracing.start(screenshots=True, snapshots=True)
    try:
        await page.evaluate(ANIMATE, 20)
        await page.evaluate(PAINTED)
        await eventually(lambda: len(recorder.recording.frames) >= 2, what="the animation recorded")
        recording = await recorder.stop()
    finally:
        await session.context.tracing.stop()
    assert {(f.width, f.height) for f in recording.frames} == {(400, 250)}
    assert _near(_pixel(recording.frames[-1], 0.5, 0.5), (0, 0, 200)), "the page as the animation left it"


async def test_a_first_picture_sent_after_the_settle_time_is_still_kept(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = session.active_page
    await show(page, BLOCK)
    recorder = Recorder(session, fps=2.0, settle_s=0.3)
    deliver = recorder._on_frame

    # A busy machine: the pictures reach the recorder a second late, well past its settle time.
    async def late(*frame: Any) -> None:
        await asyncio.sleep(1.0)
        await deliver(*frame)

    monkeypatch.setattr(recorder, "_on_frame", late)
    await recorder.start()
    await eventually(lambda: len(recorder.recording.frames) >= 1, what="the page as the recording found it")
    await eventually(lambda: not recorder.capturing, what="the recorder resting once it has its picture")
    recording = await recorder.stop()
    assert _near(_pixel(recording.frames[0], 0.5, 0.5), (200, 0, 0))
