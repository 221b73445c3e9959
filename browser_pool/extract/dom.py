"""Parsing and DOM measurements shared by the extraction steps (plain lxml, no state)."""

from __future__ import annotations

import re

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

# Chromium hands us `page.content()` as a str; lxml refuses a str that still carries an XML encoding
# declaration, so we always parse UTF-8 bytes with an explicit encoding instead.
# huge_tree: libxml2 otherwise gives up on documents nested deeper than 256 elements, which broken
# markup (hundreds of unclosed <font> or <span> tags) reaches.
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True)

_SPACE = re.compile(r"[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_TOKEN_SPLIT = re.compile(r"[^a-zA-Z0-9]+")
_TAXONOMY_CLASS = re.compile(r"^(?:tag|tags|category|categories|topic|topics|format|type|status|postid|term)[-_]", re.I)


def parse_html(html: str) -> HtmlElement | None:
    """The document's root element, or None when there is nothing to parse."""
    if not html or not html.strip():
        return None
    try:
        root = lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None
    return root if isinstance(root, HtmlElement) else None


def is_element(node: object) -> bool:
    """True for real elements; lxml also yields comments and processing instructions as children."""
    return isinstance(node, HtmlElement) and isinstance(node.tag, str)


def collapse(text: str) -> str:
    """Runs of whitespace (including non-breaking and zero-width spaces) as one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


def text_of(elem: HtmlElement) -> str:
    return collapse(elem.text_content() or "")


def text_length(elem: HtmlElement) -> int:
    # str.split() is several times faster than the regex and only differs on zero-width characters.
    return len(" ".join((elem.text_content() or "").split()))


def link_text_length(elem: HtmlElement) -> int:
    own = text_length(elem) if elem.tag == "a" else 0
    return own + sum(text_length(a) for a in elem.iterdescendants("a"))


def link_density(elem: HtmlElement) -> float:
    """Share of the element's text that sits inside links: menus and link lists are close to 1."""
    total = text_length(elem)
    if not total:
        return 0.0
    return min(1.0, link_text_length(elem) / total)


def attribute_tokens(elem: HtmlElement) -> set[str]:
    """Lower-case words of the class and id attributes, split on punctuation and camelCase.

    Taxonomy classes such as "tag-social-media" or "category-ads" (blogs put one on the article per tag)
    describe the article's subject, not the element's role, so they are left out.
    """
    names = [name for name in (elem.get("class") or "").split() if not _TAXONOMY_CLASS.match(name)]
    raw = " ".join([*names, elem.get("id") or ""])
    if not raw.strip():
        return set()
    return {token.lower() for token in _TOKEN_SPLIT.split(_CAMEL.sub(" ", raw)) if token}


def body_of(root: HtmlElement) -> HtmlElement:
    body = root.find("body")
    return body if body is not None else root
