"""The picture kept with a step: secret fields masked where the page has them, and the live view's own frame when
it already shows the page after the step (no second JPEG of the same picture)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from browser_pool.page_cdp import open_page_cdp, page_cdp
from browser_pool.pool import BrowserPool
from browser_pool.screencast import Frame, step_picture
from browser_pool.session import Session
from browser_pool.types import MASK_COLOR, secret_masks
from tests.support.waiting import eventually

from .conftest import running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

FORM = "<label>User <input value=ada></label><label>Password <input type=password value=hunter2></label>"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with running_pool(max_sessions=2, warm_contexts=0) as (started, _events):
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session(pool: BrowserPool, request: pytest.FixtureRequest) -> AsyncIterator[Session]:
    async with pool.lease(request.node.name) as leased:
        yield leased
    await pool.close_session(request.node.name, save=False)


async def test_a_password_field_is_masked_and_a_page_without_one_is_pictured_as_it_is(session: Session) -> None:
    page = session.active_page
    await page.set_content(FORM)
    masked = await page.screenshot(type="jpeg", quality=60, caret="initial", mask=secret_masks(page),
                                   mask_color=MASK_COLOR)  # fmt: skip
    plain = await page.screenshot(type="jpeg", quality=60, caret="initial")
    assert masked != plain
    assert await step_picture(page) == masked

    await page.set_content("<label>User <input value=ada></label>")
    assert await step_picture(page) == await page.screenshot(type="jpeg", quality=60, caret="initial")


async def test_with_the_pages_own_cdp_session_the_picture_is_the_same_and_a_password_is_still_masked(
    session: Session,
) -> None:
    page = session.active_page
    await open_page_cdp(page)
    assert page_cdp(page) is not None
    await page.set_content("<label>User <input value=ada></label>")
    assert await step_picture(page) == await page.screenshot(type="jpeg", quality=60, caret="initial")

    await page.set_content(FORM)
    masked = await page.screenshot(type="jpeg", quality=60, caret="initial", mask=secret_masks(page),
                                   mask_color=MASK_COLOR)  # fmt: skip
    assert await step_picture(page) == masked


async def test_a_password_field_inside_a_web_component_is_masked_too(session: Session) -> None:
    page = session.active_page
    await page.set_content("<div id=host></div>")
    await page.evaluate(
        """() => document.getElementById("host").attachShadow({mode: "open"}).innerHTML =
             '<label>Password <input type=password value=hunter2></label>'"""
    )
    plain = await page.screenshot(type="jpeg", quality=60, caret="initial")
    masked = await page.screenshot(type="jpeg", quality=60, caret="initial", mask=secret_masks(page),
                                   mask_color=MASK_COLOR)  # fmt: skip
    assert masked != plain, "the mask reaches into the shadow root"
    assert await step_picture(page) == masked


async def test_the_live_views_frame_after_the_step_is_kept_instead_of_a_new_picture(
    session: Session, site: str
) -> None:
    page = session.active_page
    await page.goto(f"{site}/color.html")
    frames: list[Frame] = []

    async def take(frame: Frame) -> None:
        frames.append(frame)

    subscription = await session.screencast.subscribe(take)
    try:
        await eventually(lambda: len(frames) >= 1, what="the first frame")
        ended_ms = time.time() * 1000
        await page.evaluate("document.getElementById('block').style.background = 'rgb(0, 0, 200)'")
        await eventually(lambda: frames[-1].ts_ms >= ended_ms, what="a frame of the change")
        live = (session.screencast, session.active_tab_id)
        assert await step_picture(page, live=live, since_ms=ended_ms) == frames[-1].data

        # Nothing captured after the step: a picture is taken.
        later = time.time() * 1000 + 60_000
        assert await step_picture(page, live=live, since_ms=later) != frames[-1].data

        # A page with a secret field is never pictured from the (unmasked) live view.
        await page.evaluate("document.body.insertAdjacentHTML('beforeend', '<input type=password value=x>')")
        await eventually(lambda: frames[-1].ts_ms >= ended_ms, what="a frame of the new field")
        pictured = await step_picture(page, live=live, since_ms=ended_ms)
        assert pictured not in {frame.data for frame in frames}
    finally:
        await subscription.close()
