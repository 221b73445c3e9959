"""The article text a page declares in its structured data (schema.org `articleBody` in JSON-LD).

Publishers put it there for search engines. It is not shown to readers and can be stale or cut short,
so it is never trusted on its own: it serves as a check that the text we chose covers the article, and
points at the element that does when readability picked a fragment.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from lxml.html import HtmlElement

from browser_pool.extract.dom import collapse, text_length

_WORD = re.compile(r"\w+")
_TAG = re.compile(r"<[^<>]{0,500}>")
_SHINGLE_WORDS = 4
# Structured bodies shorter than this are summaries, not the article.
MIN_DECLARED_CHARS = 500
# Below this share of the declared text, the chosen text misses a large part of the article.
MIN_COVERAGE = 0.5
# An element counts as holding the declared article when it covers this much of it.
ELEMENT_COVERAGE = 0.8
# A page whose visible text covers less of the declared body than this does not show that article.
PAGE_COVERAGE = 0.6
# The article's element holds about as much text as the declaration (give or take captions and the
# like); one with far more is a page-wide wrapper.
MIN_SIZE_RATIO = 0.6
MAX_SIZE_RATIO = 3.0
_CONTAINER_TAGS = ("article", "main", "section", "div", "td")


def declared_article_body(root: HtmlElement) -> str:
    """The longest `articleBody` string in the page's JSON-LD, or "" (read before scripts are stripped)."""
    best = ""
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            data = json.loads(script.text_content() or "", strict=False)
        except (ValueError, RecursionError):
            # Malformed (or absurdly nested) data is the publisher's problem, not a reason to fail.
            continue
        for body in _article_bodies(data):
            # Some publishers put the article's HTML there rather than its text.
            text = collapse(_TAG.sub(" ", body))
            if len(text) > len(best):
                best = text
    return best


def shingles(text: str) -> set[tuple[str, ...]]:
    """Overlapping runs of four lower-case words: a way to compare texts that ignores layout."""
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + _SHINGLE_WORDS]) for i in range(len(words) - _SHINGLE_WORDS + 1)}


def coverage(of: set[tuple[str, ...]], by_text: str) -> float:
    """Share of the shingles `of` that also occur in `by_text`."""
    if not of:
        return 1.0
    return len(of & shingles(by_text)) / len(of)


def text_covering(root: HtmlElement, declared: str, render_text: Callable[[HtmlElement], str]) -> str:
    """The text of the smallest container that covers the declared article, or "" when none does."""
    wanted = shingles(declared)
    best = ""
    for elem in root.iter(*_CONTAINER_TAGS):
        chars = text_length(elem)
        if not MIN_SIZE_RATIO * len(declared) <= chars <= MAX_SIZE_RATIO * len(declared):
            continue
        text = render_text(elem)
        if coverage(wanted, text) >= ELEMENT_COVERAGE and (not best or len(text) < len(best)):
            best = text
    return best


def _article_bodies(data: object) -> Iterator[str]:
    """Every "articleBody" string anywhere in the data (a loop: JSON-LD graphs nest deeply)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            body = item.get("articleBody")
            if isinstance(body, str):
                yield body
            stack.extend(value for value in item.values() if isinstance(value, dict | list))
        elif isinstance(item, list):
            stack.extend(item)
