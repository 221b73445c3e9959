"""Choosing the main content: readability's article, then semantic containers, then the body's text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lxml.html import HtmlElement

from browser_pool.extract.boilerplate import is_noise_block
from browser_pool.extract.clean import CHROME_TAGS
from browser_pool.extract.dom import body_of, is_element, text_length
from browser_pool.extract.readable import NODE_ID, number_nodes, readability_selection
from browser_pool.extract.render import BLOCK_TAGS, render
from browser_pool.extract.structured import (
    MIN_COVERAGE,
    MIN_DECLARED_CHARS,
    PAGE_COVERAGE,
    coverage,
    shingles,
    text_covering,
)
from browser_pool.extract.types import Method

# Below this, readability's pick is treated as a miss (a teaser, a caption) rather than the article.
MIN_ARTICLE_CHARS = 250
# Dropped blocks inside readability's article that come back (see `_restorable`).
RESTORE_MIN_CHARS = 25
RESTORE_MAX_LINK_DENSITY = 0.35
_STRUCTURED_TAGS = frozenset({"ul", "ol", "dl", "table"})
# Semantic containers count only when they hold more than this much text: an <article> or <main> that wraps a
# teaser or a card is not the page's article.
SEMANTIC_MIN_CHARS = 200
SEMANTIC_CONTAINERS: tuple[tuple[str, str], ...] = (
    ("article", "//article"),
    ("main", "//main"),
    ("[role=main]", "//*[@role='main']"),
    (".content", "//*[contains(concat(' ', normalize-space(@class), ' '), ' content ')]"),
    ("#content", "//*[@id='content']"),
)


@dataclass(frozen=True, slots=True)
class MainContent:
    text: str
    method: Method


def main_content(root: HtmlElement, titles: list[str], declared: str = "") -> MainContent | None:
    """The page's main text and how it was found, or None when the page shows no text at all.

    `root` must already be cleaned of code and page chrome (see `clean`); it is annotated in place.
    `declared` is the article text from the page's structured data, if any (see `structured`).
    """
    nodes = number_nodes(root)
    article = _readability_text(root, nodes, titles)
    declared_text = _declared_text(root, declared, article, titles)
    if declared_text:
        return MainContent(declared_text, "semantic")
    if len(article) >= MIN_ARTICLE_CHARS:
        return MainContent(article, "readability")
    semantic = _semantic_text(root, titles)
    if semantic:
        return MainContent(semantic, "semantic")
    body = _render_clean(body_of(root), titles)
    if body:
        return MainContent(body, "body")
    return None


def _readability_text(root: HtmlElement, nodes: dict[int, HtmlElement], titles: list[str]) -> str:
    selected = readability_selection(root)
    if not selected:
        return ""
    included = selected | _restorable(nodes, selected)

    def keep(elem: HtmlElement) -> bool:
        return _node_id(elem) in included and not is_noise_block(elem, titles)

    tops = [elem for number, elem in nodes.items() if number in selected and _node_id(elem.getparent()) not in selected]
    blocks = [render(top, keep) for top in tops if not is_noise_block(top, titles)]
    return "\n\n".join(block for block in blocks if block)


def _restorable(nodes: dict[int, HtmlElement], selected: set[int]) -> set[int]:
    """Text readability cut from inside its own article: embedded posts, lists, headings, leads.

    Readability drops elements for class words such as "media", "header" or "tweet" and drops short
    lists, even in the middle of the article. Our own cleaning already removed the page's widgets, so
    what it dropped inside the article and reads as text (few links to other pages) goes back in.
    """
    restored: set[int] = set()
    for number, elem in nodes.items():
        if number in selected or number in restored or _node_id(elem.getparent()) not in selected:
            continue
        if elem.tag in CHROME_TAGS or _outbound_link_density(elem) >= RESTORE_MAX_LINK_DENSITY:
            continue
        # Inline pieces belong to a sentence and lists or tables are structured content, whatever their
        # length; other blocks must read as text.
        chars = text_length(elem)
        short_block = elem.tag in BLOCK_TAGS and elem.tag not in _STRUCTURED_TAGS and chars < RESTORE_MIN_CHARS
        if not chars or short_block:
            continue
        restored.update(_node_id(inner) for inner in elem.iter() if is_element(inner))
    return restored


def _outbound_link_density(elem: HtmlElement) -> float:
    """Link density counting only links to other pages: docs sites make every heading an in-page anchor."""
    total = text_length(elem)
    if not total:
        return 0.0
    outbound = sum(text_length(link) for link in elem.iter("a") if not (link.get("href") or "").startswith("#"))
    return min(1.0, outbound / total)


def _declared_text(root: HtmlElement, declared: str, article: str, titles: list[str]) -> str:
    """The element holding the structured-data article when readability's text misses much of it."""
    if len(declared) < MIN_DECLARED_CHARS:
        return ""
    wanted = shingles(declared)
    if coverage(wanted, article) >= MIN_COVERAGE:
        return ""
    page = _render_clean(body_of(root), titles)
    if coverage(wanted, page) < PAGE_COVERAGE:
        # The page does not show the declared article (stale or another page's data): ignore it.
        return ""
    found = text_covering(root, declared, lambda elem: _render_clean(elem, titles))
    return found if found and coverage(wanted, found) > coverage(wanted, article) else ""


def _semantic_text(root: HtmlElement, titles: list[str]) -> str:
    for _selector, xpath in SEMANTIC_CONTAINERS:
        for container in root.xpath(xpath):
            text = _render_clean(container, titles)
            if len(text) > SEMANTIC_MIN_CHARS:
                return text
    return ""


def _render_clean(container: HtmlElement, titles: list[str]) -> str:
    keep: Callable[[HtmlElement], bool] = lambda elem: not is_noise_block(elem, titles)  # noqa: E731
    return render(container, keep)


def _node_id(elem: HtmlElement | None) -> int:
    if elem is None:
        return -1
    raw = elem.get(NODE_ID) or ""
    return int(raw) if raw.isdigit() else -1
