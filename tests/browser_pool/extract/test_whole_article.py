"""The article, whole and alone: a long article is not cut, and related-post grids, hover cards and slideshow
captions are neither taken for the article nor mixed into it.

The pages in bench/pages/extraction (also the benchmark's local cases) are shaped like real sites' markup; every
article paragraph is marked ARTICLE-n and every piece of text that is not the article GRID-n, CARD-n or SLIDE-n, so
a test reads what a user would check.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from browser_pool.extract import extract_content, extract_page
from tests.support.browsers import launch_browser
from tests.support.static_server import serve_directory

PAGES = Path(__file__).resolve().parents[3] / "bench" / "pages" / "extraction"
ASYNC = pytest.mark.asyncio(loop_scope="module")
NOT_ARTICLE = re.compile(r"(?:GRID|CARD|SLIDE)-\d+")
# An inline hover card inside a sentence (hover_cards.html): part of the paragraph's markup, not of its text.
_INLINE_CARD = re.compile(r'<span class="pc">.*?</span>', re.DOTALL)


def article_paragraphs(html: str) -> list[str]:
    """The article's paragraphs as the page shows them (markup removed, spaces collapsed), in order."""
    found = re.findall(r"<p>(ARTICLE-\d+ .*?)</p>", _INLINE_CARD.sub("", html), re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", "", paragraph).split()) for paragraph in found]


def assert_whole_and_alone(text: str, html: str) -> None:
    paragraphs = article_paragraphs(html)
    assert paragraphs
    positions = [text.find(paragraph) for paragraph in paragraphs]
    assert all(position >= 0 for position in positions), [
        p[:12] for p, at in zip(paragraphs, positions, strict=True) if at < 0
    ]
    assert positions == sorted(positions)
    assert NOT_ARTICLE.findall(text) == []


def long_article() -> str:
    """About 60,000 characters of article, each paragraph different."""
    return (PAGES / "long_article.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["related_grid", "hover_cards_marked", "slideshow"])
def test_the_article_is_extracted_whole_and_alone(name: str) -> None:
    html = (PAGES / f"{name}.html").read_text(encoding="utf-8")

    result = extract_content(html, f"https://news.example/{name}")

    assert result.method == "readability"
    assert_whole_and_alone(result.text, html)


def test_the_benchmarks_gold_text_is_the_marked_article() -> None:
    truth = json.loads((PAGES / "ground-truth.json").read_text(encoding="utf-8"))
    for key, item in truth.items():
        assert item["articleBody"] == "\n\n".join(article_paragraphs((PAGES / f"{key}.html").read_text("utf-8")))


def test_the_grid_is_more_text_than_the_article() -> None:
    """What makes the related-grid page hard: the grid would outweigh the short article."""
    html = (PAGES / "related_grid.html").read_text(encoding="utf-8")
    grid = sum(len(m) for m in re.findall(r"GRID-\d+ [^<]*", html))
    assert grid > 3 * sum(len(p) for p in article_paragraphs(html))


def test_a_60k_article_comes_out_whole() -> None:
    html = long_article()

    result = extract_content(html, "https://journal.example/cliffs")

    assert 55_000 < result.length < 70_000
    assert not result.truncated
    assert len(result.text) == result.length
    assert_whole_and_alone(result.text, html)
    assert "Field notes, a journal" not in result.text


# -- a live tab in real Chromium: what the page hides stays out ---------------------------------------------------


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_directory(PAGES) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with launch_browser() as chromium:
        yield chromium


@ASYNC
@pytest.mark.browser
async def test_hover_cards_the_stylesheet_hides_stay_out_of_a_live_tab(browser: Browser, site: str) -> None:
    html = (PAGES / "hover_cards.html").read_text(encoding="utf-8")
    # The markup alone does not tell: only the stylesheet hides these cards until a hover.
    assert NOT_ARTICLE.findall(extract_content(html, f"{site}/hover_cards.html").text)
    page = await browser.new_page()
    try:
        await page.goto(f"{site}/hover_cards.html")

        result = await extract_page(page)
        document = await page.content()
        shown = await page.evaluate("document.body.innerText")
    finally:
        await page.close()

    assert_whole_and_alone(result.text, html)
    assert len(NOT_ARTICLE.findall(document)) == 12  # the cards are in the document the tab holds...
    assert "CARD-" not in shown  # ...but the reader does not see them


@ASYNC
@pytest.mark.browser
async def test_a_long_article_in_a_live_tab_comes_out_whole(browser: Browser, site: str) -> None:
    page = await browser.new_page()
    try:
        await page.goto(f"{site}/long_article.html")

        result = await extract_page(page)
    finally:
        await page.close()

    assert not result.truncated
    assert result.length > 55_000
    assert_whole_and_alone(result.text, long_article())


@ASYNC
@pytest.mark.browser
async def test_a_page_that_hides_its_whole_body_while_loading_is_still_read(browser: Browser, site: str) -> None:
    page = await browser.new_page()
    try:
        await page.goto(f"{site}/related_grid.html")
        # As pages do until their web fonts arrive: everything is hidden, nothing in particular.
        await page.add_style_tag(content="body { visibility: hidden }")

        result = await extract_page(page)
    finally:
        await page.close()

    assert_whole_and_alone(result.text, (PAGES / "related_grid.html").read_text(encoding="utf-8"))
