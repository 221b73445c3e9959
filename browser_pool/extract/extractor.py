"""`extract_content`: a page's HTML to the readable text a shared tab carries into the model's context."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from lxml.html import HtmlElement

from browser_pool.extract.boilerplate import comparable_titles, strip_teaser_runs
from browser_pool.extract.clean import strip_chrome, strip_non_text, strip_slideshows, strip_teaser_grids
from browser_pool.extract.dom import collapse, parse_html
from browser_pool.extract.limit import apply_limit
from browser_pool.extract.main_content import main_content
from browser_pool.extract.restricted import document_kind, document_reason, restricted_url_reason
from browser_pool.extract.structured import declared_article_body
from browser_pool.extract.types import SAFETY_LIMIT, ExtractedContent

EMPTY_DOCUMENT = "The page is empty: it has no HTML content."
NO_VISIBLE_TEXT = "The page shows no text to read (it may still be loading, or be all images or video)."


def extract_content(html: str, url: str, *, limit: int = SAFETY_LIMIT, title: str = "") -> ExtractedContent:
    """The main text of a page, cleaned of page chrome, whole unless it is longer than `limit` characters.

    Over `limit` the text is cut at a word boundary with a visible mark (see `limit.apply_limit`); the default
    is only a safety bound, so an article is kept whole and its reader pages through it.

    `title` overrides the document's own `<title>` (the browser's tab title, when the caller has it).
    Browser-internal and local pages come back with method "restricted", pages without text with
    "empty"; both carry a `reason` to show the user instead of content.
    """
    if limit < 1:
        raise ValueError(f"limit must be a positive number of characters, got {limit}")
    now = datetime.now(UTC)
    reason = restricted_url_reason(url)
    if reason:
        return without_text(url, "restricted", reason, title=title, now=now)
    root = parse_html(html)
    if root is None:
        kind = document_kind(url, None)
        if kind:
            return without_text(url, "restricted", document_reason(kind), title=title, now=now)
        return without_text(url, "empty", EMPTY_DOCUMENT, title=title, now=now)
    titles = _titles(root, title)
    page_title = titles[0] if titles else ""
    kind = document_kind(url, root)
    declared = declared_article_body(root)
    strip_non_text(root)
    strip_chrome(root)
    strip_slideshows(root)
    strip_teaser_grids(root)
    strip_teaser_runs(root)
    found = main_content(root, comparable_titles(titles), declared)
    if found is None:
        if kind:
            return without_text(url, "restricted", document_reason(kind), title=page_title, now=now)
        return without_text(url, "empty", NO_VISIBLE_TEXT, title=page_title, now=now)
    text, truncated = apply_limit(found.text, limit)
    return ExtractedContent(
        title=page_title,
        url=url,
        text=text,
        length=len(found.text),
        truncated=truncated,
        method=found.method,
        extracted_at=now,
    )


def _titles(root: HtmlElement, given: str) -> list[str]:
    """Names of the page, best first: the given tab title, `<title>`, Open Graph's, the first `<h1>`."""
    candidates = [given]
    title = root.find(".//title")
    if title is not None:
        candidates.append(title.text_content() or "")
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() in ("og:title", "twitter:title"):
            candidates.append(meta.get("content") or "")
    heading = next(root.iter("h1"), None)
    if heading is not None:
        candidates.append(heading.text_content() or "")
    seen: list[str] = []
    for candidate in (collapse(raw) for raw in candidates):
        if candidate and candidate not in seen:
            seen.append(candidate)
    return seen


def without_text(
    url: str, method: Literal["restricted", "empty"], reason: str, *, title: str = "", now: datetime | None = None
) -> ExtractedContent:
    """A result that carries no page text, only the reason why."""
    return ExtractedContent(
        title=title,
        url=url,
        text="",
        length=0,
        truncated=False,
        method=method,
        extracted_at=now or datetime.now(UTC),
        reason=reason,
    )
