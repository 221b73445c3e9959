"""Live view: frames follow page changes and the active tab, the rate is capped, slow viewers only hurt themselves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from browser_pool.pool import BrowserPool
from browser_pool.screencast import Frame, FrameHandler, ScreencastOptions
from browser_pool.session import Session
from tests.support.waiting import eventually

from .conftest import running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

MAX_FPS = 10.0


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with running_pool(max_sessions=4, warm_contexts=1) as (started, _events):
        started._screencast_options = ScreencastOptions(max_fps=MAX_FPS, quality=50, max_width=640, max_height=400)
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session(pool: BrowserPool, request: pytest.FixtureRequest) -> AsyncIterator[Session]:
    async with pool.lease(request.node.name) as leased:
        yield leased
    await pool.close_session(request.node.name, save=False)


def collector(into: list[Frame], delay_s: float = 0.0) -> FrameHandler:
    async def take(frame: Frame) -> None:
        into.append(frame)
        if delay_s:
            await asyncio.sleep(delay_s)

    return take


async def test_a_viewer_gets_a_frame_when_the_page_changes(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/color.html")
    frames: list[Frame] = []
    subscription = await session.screencast.subscribe(collector(frames))
    await eventually(lambda: len(frames) >= 1, what="the first frame")
    await asyncio.sleep(0.5)  # a static page sends nothing more
    seen = len(frames)

    changed_ms = time.time() * 1000
    await session.active_page.evaluate("document.getElementById('block').style.background = 'rgb(0, 0, 200)'")

    await eventually(lambda: len(frames) > seen, what="a frame showing the change")
    frame = frames[-1]
    assert frame.data != frames[seen - 1].data
    assert frame.ts_ms >= changed_ms - 50
    assert (frame.width, frame.height) == (640, 400), "scaled to fit max_width x max_height"
    assert frame.tab_id == "t1"
    await subscription.close()
    assert not session.screencast.running, "the last viewer leaving stops the screencast"


async def test_a_slow_viewer_does_not_slow_a_fast_one_and_the_rate_is_capped(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/animate.html")
    fast: list[Frame] = []
    slow: list[Frame] = []
    fast_sub = await session.screencast.subscribe(collector(fast))
    slow_sub = await session.screencast.subscribe(collector(slow, delay_s=0.5))
    published_before = session.screencast.frames_published
    started = time.monotonic()

    # A loaded machine paints the animation more slowly: wait for a number of frames, and judge the rate over the
    # time they actually took rather than over a fixed window.
    wanted = 12
    await eventually(
        lambda: session.screencast.frames_published - published_before >= wanted,
        within_s=30.0,
        what=f"{wanted} frames of the animation",
    )
    elapsed_s = time.monotonic() - started
    published = session.screencast.frames_published - published_before
    fast_seen, slow_seen = len(fast), len(slow)
    await fast_sub.close()
    await slow_sub.close()

    assert published <= elapsed_s * MAX_FPS + 2, f"{published} frames in {elapsed_s:.1f} s breaks the {MAX_FPS} fps cap"
    assert fast_seen >= published - 1, f"the fast viewer got {fast_seen} of {published} frames"
    assert slow_seen <= elapsed_s / 0.5 + 1, f"the slow viewer got {slow_seen} frames in {elapsed_s:.1f} s"
    assert slow_seen < fast_seen
    assert slow_sub.dropped > 0, "the slow viewer skips to the newest frame instead of queueing"


async def test_the_live_view_follows_the_active_tab(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/color.html")
    frames: list[Frame] = []
    subscription = await session.screencast.subscribe(collector(frames))
    await eventually(lambda: len(frames) >= 1, what="a frame of the first tab")

    await session.open_tab(f"{site}/animate.html")
    await eventually(lambda: frames[-1].tab_id == "t2", what="frames of the new tab")
    await session.switch_tab("t1")
    await eventually(lambda: frames[-1].tab_id == "t1", what="frames of the first tab again")

    # Another site in the same tab runs in another renderer process; the stream carries on.
    seen = len(frames)
    await session.active_page.goto(f"{site.replace('127.0.0.1', 'localhost')}/animate.html")
    await eventually(lambda: len(frames) > seen + 3 and frames[-1].tab_id == "t1", what="frames after navigating")

    await subscription.close()


async def test_a_late_viewer_of_a_static_page_gets_the_current_picture(session: Session, site: str) -> None:
    await session.active_page.goto(f"{site}/color.html")
    first: list[Frame] = []
    early = await session.screencast.subscribe(collector(first))
    await eventually(lambda: len(first) >= 1, what="the first viewer's frame")
    await asyncio.sleep(0.3)

    late_frames: list[Frame] = []
    late = await session.screencast.subscribe(collector(late_frames))

    await eventually(lambda: len(late_frames) == 1, what="the picture for the late viewer")
    assert late_frames[0].data == first[-1].data
    assert session.busy, "someone watching keeps the session from being reaped"
    await early.close()
    await late.close()


async def test_the_live_view_goes_on_while_a_run_is_traced_and_after(
    session: Session, site: str, tmp_path: Path
) -> None:
    """A run's trace takes its own screenshots of the same page: the viewer's frames do not stop for it."""
    await session.active_page.goto(f"{site}/color.html")
    frames: list[Frame] = []
    subscription = await session.screencast.subscribe(collector(frames))
    await eventually(lambda: len(frames) >= 1, what="the first frame")

    async def a_frame_after(colour: str, what: str) -> None:
        seen = len(frames)
        await session.active_page.evaluate(f"document.getElementById('block').style.background = '{colour}'")
        await eventually(lambda: len(frames) > seen, what=what)

    for colour in ("rgb(0, 0, 200)", "rgb(0, 200, 0)"):  # the first run starts the tracing, the second a chunk
        await session.tracing.begin("a run")
        await a_frame_after(colour, "a frame while the run is traced")
        assert await session.tracing.end(tmp_path / "trace.zip")
        await a_frame_after("rgb(9, 9, 9)", "a frame after the run's chunk closed")
    await subscription.close()
