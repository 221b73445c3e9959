"""Live-view input: clicks, wheel, keys and text sent as picture fractions reach the page where the viewer aimed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from browser_pool.input import InputEvent
from browser_pool.pool import BrowserPool
from browser_pool.session import Session

from .conftest import running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# input.html: a button at (600, 300) of 100 x 50 CSS px and a text field at (100, 100) of 300 x 30, viewport 1280 x 800.
VIEWPORT = (1280, 800)


def at(x: float, y: float) -> dict[str, float]:
    """The picture fractions a viewer clicks for CSS pixel (x, y)."""
    return {"x": x / VIEWPORT[0], "y": y / VIEWPORT[1]}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with running_pool(max_sessions=4, warm_contexts=1) as (started, _events):
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session(pool: BrowserPool, site: str, request: pytest.FixtureRequest) -> AsyncIterator[Session]:
    async with pool.lease(request.node.name) as leased:
        await leased.active_page.goto(f"{site}/input.html")
        yield leased
    await pool.close_session(request.node.name, save=False)


async def send(session: Session, **raw: Any) -> None:
    await session.send_input(InputEvent.from_dict(raw))


async def test_a_click_lands_where_the_viewer_clicked(session: Session) -> None:
    await send(session, kind="click", **at(650, 325))

    clicks = await session.active_page.evaluate("window.clicks")
    assert clicks == [{"x": 650, "y": 325, "target": "target"}]


async def test_a_drag_presses_moves_and_releases_where_aimed(session: Session) -> None:
    await send(session, kind="down", **at(100, 400))
    await send(session, kind="move", **at(300, 450))
    await send(session, kind="up", **at(300, 450))

    assert await session.active_page.evaluate("window.buttons") == [
        {"type": "mousedown", "x": 100, "y": 400, "held": 1},
        {"type": "mouseup", "x": 300, "y": 450, "held": 0},
    ]


async def test_typed_text_and_keys_reach_the_focused_field(session: Session) -> None:
    await send(session, kind="click", **at(200, 115))
    await send(session, kind="text", text="hello wörld")
    await send(session, kind="key", key="!")
    await send(session, kind="key", key="Backspace")
    await send(session, kind="key", key="Enter")

    field = session.active_page.locator("#field")
    assert await field.input_value() == "hello wörld"
    keys = await session.active_page.evaluate("window.keys.map(k => k.key)")
    assert keys == ["!", "Backspace", "Enter"]


async def test_modifiers_reach_the_page_and_ctrl_a_selects_instead_of_typing(session: Session) -> None:
    await send(session, kind="click", **at(200, 115))
    await send(session, kind="text", text="old text")

    await send(session, kind="key", key="a", modifiers=["ctrl"])
    await send(session, kind="text", text="new")

    assert await session.active_page.locator("#field").input_value() == "new"
    last_key = await session.active_page.evaluate("window.keys.at(-1)")
    assert last_key == {"key": "a", "ctrl": True, "shift": False}


async def test_the_wheel_scrolls_the_page(session: Session) -> None:
    await send(session, kind="wheel", x=0.5, y=0.5, delta_y=600)

    await session.active_page.wait_for_function("window.scrollY >= 600", timeout=3000)
