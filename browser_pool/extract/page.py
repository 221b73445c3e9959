"""`extract_page`: the same extraction, read from a live Playwright tab."""

from __future__ import annotations

import asyncio
from importlib import resources
from typing import TYPE_CHECKING

from browser_pool.extract.extractor import extract_content, without_text
from browser_pool.extract.restricted import restricted_url_reason
from browser_pool.extract.types import SAFETY_LIMIT, ExtractedContent

if TYPE_CHECKING:
    from playwright.async_api import Page

UNREADABLE_PAGE = "The page could not be read: {error}"
# The page's HTML without what it hides from the reader (hover cards, closed popovers, collapsed menus).
VISIBLE_HTML_SOURCE = resources.files(__package__).joinpath("visible_html.js").read_text(encoding="utf-8")


async def extract_page(page: Page, *, limit: int = SAFETY_LIMIT) -> ExtractedContent:
    """The main text of the page a tab shows now (after its scripts ran), whole up to `limit` characters.

    Restricted addresses (browser internals, local files, downloads) are answered from the URL alone,
    without asking the page for anything. What the page hides (`display: none`, `visibility: hidden`) is left
    out: hover cards, closed popovers and tooltips are in the document but not in the article a reader sees.
    """
    from playwright.async_api import Error as PlaywrightError

    url = page.url
    if restricted_url_reason(url):
        return extract_content("", url, limit=limit)
    try:
        html = str(await page.evaluate(VISIBLE_HTML_SOURCE))
        title = await page.title()
    except PlaywrightError as exc:
        # Typically a navigation replaced the document while we read it; the caller may simply retry.
        message = str(exc).strip()
        first_line = message.splitlines()[0] if message else type(exc).__name__
        return without_text(url, "empty", UNREADABLE_PAGE.format(error=first_line))
    # Parsing a large page takes tens of milliseconds: keep it off the event loop the pool shares.
    return await asyncio.to_thread(extract_content, html, page.url or url, limit=limit, title=title)
