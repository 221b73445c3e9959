"""What the pictures Hive keeps of a page cover: secret fields (a password, a field a secret was typed into), and
wherever the page shows back a secret typed into it, as text or in another field's value, in the page and in its
frames at any depth (a sign-in widget is often a frame of another site)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_pool.types import CONCEALED, MASK_COLOR, SECRET_FIELDS

log = logging.getLogger(__name__)

# Fields whose value may show a secret back (a password field, or one a secret was typed into, is covered anyway).
_SHOWING_FIELDS = f"input:not([type=password]):not([{CONCEALED}]), textarea:not([{CONCEALED}])"
# How long the page's frames may take to tell their fields' values before the picture is given up.
FIELD_VALUES_S = 2.0


def live_frames(page: Page) -> list[Frame]:
    """The page's own document first, then each of its frames still attached, at any depth."""
    return [page.main_frame, *(frame for frame in page.frames[1:] if not frame.is_detached())]


def secret_masks(page: Page, hidden: Collection[str] = ()) -> list[Locator]:
    """The secret fields, and the smallest element holding each of the `hidden` texts as text ("Signed in as ...";
    matched as Playwright matches text, whatever its case and spacing), in the page and each of its frames."""
    texts = sorted(text for text in hidden if text.strip())
    return [
        mask for frame in live_frames(page) for mask in (frame.locator(SECRET_FIELDS), *map(frame.get_by_text, texts))
    ]


async def fields_showing(page: Page, hidden: Collection[str]) -> list[Locator]:
    """The fields, in the page and its frames, whose value holds one of the `hidden` texts, whatever its case. The
    values are read and compared here: the page is never given the secrets, which its scripts could read."""
    texts = [text.casefold() for text in hidden if text.strip()]
    if not texts:
        return []
    frames = live_frames(page)
    fields = [frame.locator(_SHOWING_FIELDS) for frame in frames]
    async with asyncio.timeout(FIELD_VALUES_S):
        read = await asyncio.gather(
            *(found.evaluate_all("(fields) => fields.map((field) => field.value)") for found in fields),
            return_exceptions=True,
        )
    showing = []
    for frame, found, values in zip(frames, fields, read, strict=True):
        if isinstance(values, BaseException):
            if frame.is_detached():
                continue  # gone: nothing of it is pictured
            raise values
        showing += [found.nth(n) for n, value in enumerate(values) if any(t in str(value).casefold() for t in texts)]
    return showing


async def masked_screenshot(page: Page, hidden: Collection[str] = (), **options: Any) -> bytes:
    """`page.screenshot(**options)` with the secret fields and every place showing a `hidden` text covered. A frame
    removed while it is taken (an advert, a widget reloading) fails the whole screenshot: it is taken once more with
    the frames there are then."""
    try:
        return await _masked(page, hidden, options)
    except PlaywrightTimeoutError:
        raise
    except PlaywrightError:
        log.debug("a masked screenshot failed; taken again", exc_info=True)
    return await _masked(page, hidden, options)


async def _masked(page: Page, hidden: Collection[str], options: dict[str, Any]) -> bytes:
    masks = [*secret_masks(page, hidden), *await fields_showing(page, hidden)]
    return await page.screenshot(mask=masks, mask_color=MASK_COLOR, **options)
