"""The picture kept with a step: secret fields masked where the page has them, and the live view's own frame when
it already shows the page after the step (no second JPEG of the same picture)."""

from __future__ import annotations

import html
import io
import json
import time
from collections.abc import AsyncIterator, Collection

import pytest
import pytest_asyncio
from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Locator, Page

from browser_pool import masks
from browser_pool.actions import ACTIONS, parse_arguments, perform
from browser_pool.masks import secret_masks
from browser_pool.observe import get_element_details, get_elements
from browser_pool.page_cdp import open_page_cdp, page_cdp
from browser_pool.pool import BrowserPool
from browser_pool.screencast import Frame, step_picture
from browser_pool.session import Session
from browser_pool.types import MASK_COLOR, ActionResult
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


# A wide field of large dark-red letters at the page's top left, and something else to move the focus to.
TOKEN_FIELD = (
    "<body style='margin:0'><input id=token aria-label=Token "
    "style='font: 48px monospace; color: rgb(160, 0, 0); width: 700px; border: 0'><button>Elsewhere</button></body>"
)


def _field_crop(picture: bytes) -> Image.Image:
    """The token field's part of a picture of the 1280x800 viewport, at whatever size the picture is."""
    image = Image.open(io.BytesIO(picture)).convert("L")
    scale = image.width / 1280
    return image.crop((0, 0, int(700 * scale), int(56 * scale)))


def _difference(one: bytes, other: bytes) -> float:
    """Mean difference, 0-255, between the token field as two pictures show it."""
    return float(ImageStat.Stat(ImageChops.difference(_field_crop(one), _field_crop(other))).mean[0])


async def _pictures_of(session: Session, text: str, *, conceal: bool) -> tuple[bytes, bytes, bytes]:
    """The live view's frame, an unmasked screenshot (as a trace draws the page) and the step's picture, after
    `text` was typed into the token field."""
    page = session.active_page
    await page.set_content(TOKEN_FIELD)
    frames: list[Frame] = []

    async def take(frame: Frame) -> None:
        frames.append(frame)

    subscription = await session.screencast.subscribe(take)
    try:
        typed = await perform(session, ACTIONS["type"], ACTIONS["type"].typed(
            {"selector": "#token", "text": text, "conceal": conceal}))  # fmt: skip
        assert typed.ok, typed.error
        assert typed.data["value"] == ("•" * len(text) if conceal else text)
        settled_ms = time.time() * 1000  # before the focus moves: its frame may be stamped as it starts
        await page.get_by_role("button").focus()  # no caret in the field
        await eventually(lambda: bool(frames) and frames[-1].ts_ms >= settled_ms, what="a frame of the field")
        unmasked = await page.screenshot(type="jpeg", quality=60, caret="initial")
        return frames[-1].data, unmasked, await step_picture(page)
    finally:
        await subscription.close()


async def test_a_secret_typed_into_a_text_field_shows_in_no_picture(session: Session) -> None:
    """Two secrets of one length look the same in the live view, a trace's screenshot and the step's picture; two
    plain texts of that length do not."""
    secrets = [await _pictures_of(session, text, conceal=True) for text in ("MMMMMMMM", "iiiiiiii")]
    plain = [await _pictures_of(session, text, conceal=False) for text in ("MMMMMMMM", "iiiiiiii")]
    for where, (one, other), (shown, also_shown) in zip(
        ("live view", "screenshot", "step picture"), zip(*secrets, strict=True), zip(*plain, strict=True), strict=True
    ):
        assert _difference(shown, also_shown) > 5, f"the {where} shows plain text"
        assert _difference(one, other) < 1.5, f"the {where} shows what the secret is"

    # The step's picture masks the field with a grey box, as it does a password field.
    darkest, _ = _field_crop(secrets[0][2]).getextrema()
    assert isinstance(darkest, int)
    assert darkest > 100, "nothing dark (no letter, no dot) in the masked field"


async def test_a_plain_text_typed_over_a_secret_shows_again(session: Session) -> None:
    page = session.active_page
    await page.set_content(TOKEN_FIELD)
    hidden = await perform(session, ACTIONS["type"], ACTIONS["type"].typed(
        {"selector": "#token", "text": "s3cret", "conceal": True}))  # fmt: skip
    assert hidden.data["value"] == "••••••"
    # What the agent reads of the page later (another turn, whose mask never saw the value) says no more either.
    listing = await get_elements(page)
    assert "s3cret" not in listing.text
    assert 'value="•••"' in listing.text
    details = await get_element_details(page, [item.index for item in listing.items if item.text == "Token"])
    assert "s3cret" not in repr(details.found)
    assert [entry.info.value for entry in details.found] == ["•••"]
    shown = await perform(session, ACTIONS["type"], ACTIONS["type"].typed({"selector": "#token", "text": "hello"}))
    assert shown.data["value"] == "hello"
    assert await page.evaluate("getComputedStyle(document.getElementById('token')).webkitTextSecurity") == "none"
    appended = await perform(session, ACTIONS["type"], ACTIONS["type"].typed(
        {"selector": "#token", "text": "X", "conceal": True}))  # fmt: skip
    again = await perform(session, ACTIONS["type"], ACTIONS["type"].typed(
        {"selector": "#token", "text": "more", "clear": False}))  # fmt: skip
    assert (appended.data["value"], again.data["value"]) == ("•", "•••••"), "appending keeps the secret hidden"


async def test_a_client_cannot_ask_for_the_secret_typing_itself() -> None:
    assert "conceal" not in json.dumps(ACTIONS["type"].schema)
    refused = parse_arguments("type", {"selector": "#token", "text": "x", "conceal": True})
    assert isinstance(refused, ActionResult)
    assert not refused.ok


def _echo_page(value: str) -> str:
    """A page that shows a secret back as text where the token field would be ("Hi <value>", in large letters)."""
    return (
        "<body style='margin:0'><p style='margin:0; font: 48px monospace; color: rgb(160, 0, 0); width: 700px'>"
        f"Hi <b>{value}</b></p></body>"
    )


async def test_a_secret_the_page_shows_back_as_text_shows_in_no_picture(session: Session) -> None:
    """Two secrets of one length shown back by the page look the same in the step's picture and in a screenshot the
    step takes; unhidden, they do not."""
    page = session.active_page
    spec = ACTIONS["screenshot"]
    pictures: dict[str, tuple[bytes, bytes, bytes]] = {}
    for value in ("MMMMMMMM", "iiiiiiii"):
        await page.set_content(_echo_page(value))
        result = await perform(session, spec, spec.typed({"hidden": [value]}))
        assert result.ok, result.error
        assert result.screenshot is not None
        pictures[value] = (await step_picture(page), await step_picture(page, hidden={value}), result.screenshot)
    (shown, hidden, taken), (also_shown, also_hidden, also_taken) = pictures.values()
    assert _difference(shown, also_shown) > 5, "the page shows the text"
    assert _difference(hidden, also_hidden) < 1.5, "the step's picture shows what the secret is"
    assert _difference(taken, also_taken) < 1.5, "the screenshot shows what the secret is"
    # Covered by a grey box, as a password field is: the words around it stay.
    box = await page.locator("b").bounding_box()
    assert box is not None
    picture = Image.open(io.BytesIO(hidden)).convert("L")
    top, bottom = int(box["y"]), int(box["y"] + box["height"])
    darkest, _ = picture.crop((int(box["x"]), top, int(box["x"] + box["width"]), bottom)).getextrema()
    assert isinstance(darkest, int)
    assert darkest > 100, "nothing dark (no letter) where the page shows the secret"
    darkest_before, _ = picture.crop((0, top, int(box["x"]), bottom)).getextrema()
    assert isinstance(darkest_before, int)
    assert darkest_before < 100, "the words before it are pictured"


def _whole_difference(one: bytes, other: bytes) -> float:
    return float(
        ImageStat.Stat(ImageChops.difference(*(Image.open(io.BytesIO(b)).convert("L") for b in (one, other)))).mean[0]
    )


async def test_a_secret_a_frame_shows_back_shows_in_no_picture(session: Session, site: str) -> None:
    """A sign-in widget in a frame (one of another site, in a process of its own, and one inside a frame) shows the
    value back: two secrets of one length give the same step picture; unhidden, they do not."""
    page = session.active_page
    other_site = site.replace("127.0.0.1", "localhost")  # another site: Chromium puts its frame in another process
    await page.goto(f"{site}/plain.html")
    pictures: dict[str, tuple[bytes, bytes]] = {}
    for value in ("MMMMMMMM", "iiiiiiii"):
        inner = f"<p style='font: 48px monospace; margin: 0'>Hi <b>{value}</b></p>"
        middle = f"<iframe srcdoc=\"{html.escape(inner)}\" style='width: 650px; height: 80px'></iframe>"
        await page.set_content(
            f"<iframe src='{other_site}/echo.html#{value}' style='width: 700px; height: 90px'></iframe>"
            f"<iframe srcdoc=\"{html.escape(middle)}\" style='width: 700px; height: 120px'></iframe>"
        )
        await eventually(lambda: len(page.frames) == 4 and all(f.url != "about:blank" for f in page.frames[1:]),
                         what="the frames")  # fmt: skip
        for frame in page.frames[1:]:
            if not frame.child_frames:
                await frame.get_by_text(value).wait_for()
        pictures[value] = (await step_picture(page), await step_picture(page, hidden={value}))
    (shown, hidden), (also_shown, also_hidden) = pictures.values()
    assert _whole_difference(shown, also_shown) > 1, "the frames show the text"
    assert _whole_difference(hidden, also_hidden) < 0.05, "the step's picture shows what the secret is"


async def test_a_secret_another_field_shows_back_shows_in_no_picture(session: Session) -> None:
    """A page copies a typed value into fields of its own ("confirm your e-mail"), in its document and in a frame:
    two secrets of one length give the same step picture; unhidden, they do not."""
    page = session.active_page
    style = "font: 40px monospace; width: 600px; display: block; margin: 4px"
    pictures: dict[str, tuple[bytes, bytes]] = {}
    for value in ("MMMMMMMM", "iiiiiiii"):
        in_frame = f"<textarea style='{style}; height: 60px'>Confirm: {value.upper()}</textarea>"
        await page.set_content(
            f"<input value='{value}' style='{style}'><input value='nothing secret' style='{style}'>"
            f"<iframe srcdoc=\"{html.escape(in_frame)}\" style='width: 700px; height: 90px'></iframe>"
        )
        await eventually(lambda: len(page.frames) == 2 and page.frames[1].url == "about:srcdoc", what="the frame")
        await page.frames[1].locator("textarea").wait_for()
        pictures[value] = (await step_picture(page), await step_picture(page, hidden={value}))
    (shown, hidden), (also_shown, also_hidden) = pictures.values()
    assert _whole_difference(shown, also_shown) > 1, "the fields show the text"
    assert _whole_difference(hidden, also_hidden) < 0.05, "the step's picture shows what the secret is"
    # The field showing nothing secret is pictured.
    box = await page.locator("input").nth(1).bounding_box()
    assert box is not None
    darkest, _ = (
        Image.open(io.BytesIO(hidden))
        .convert("L")
        .crop((int(box["x"]), int(box["y"]), int(box["x"] + box["width"]), int(box["y"] + box["height"])))
        .getextrema()
    )
    assert isinstance(darkest, int)
    assert darkest < 100, "its letters are there"


async def test_a_frame_removed_while_the_picture_is_taken_does_not_cost_the_picture(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = session.active_page
    await page.set_content("<iframe srcdoc='<p>Hi MMMMMMMM</p>'></iframe><p>Hi MMMMMMMM</p>")
    await page.frames[1].get_by_text("MMMMMMMM").wait_for()
    gone = page.frames[1]
    await page.evaluate("document.querySelector('iframe').remove()")
    await eventually(gone.is_detached, what="the frame removed")
    made = []

    def masks_of_a_moment_ago(page: Page, hidden: Collection[str] = ()) -> list[Locator]:
        made.append(True)  # the first ones still name the frame, as when it goes away during the screenshot
        return [*secret_masks(page, hidden), *([gone.get_by_text("MMMMMMMM")] if len(made) == 1 else [])]

    monkeypatch.setattr(masks, "secret_masks", masks_of_a_moment_ago)
    picture = await step_picture(page, hidden={"MMMMMMMM"})
    assert len(made) == 2, "taken again"
    monkeypatch.undo()
    assert picture == await page.screenshot(type="jpeg", quality=60, caret="initial", mask=secret_masks(page, {"MMMMMMMM"}),
                                            mask_color=MASK_COLOR)  # fmt: skip


async def test_a_client_cannot_ask_for_what_a_screenshot_hides() -> None:
    assert "hidden" not in json.dumps(ACTIONS["screenshot"].schema)
    refused = parse_arguments("screenshot", {"hidden": ["x"]})
    assert isinstance(refused, ActionResult)
    assert not refused.ok
