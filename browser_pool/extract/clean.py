"""Noise removal before the main content is chosen: code, hidden elements, page chrome, ads, widgets.

Everything here is decided from markup alone (tags, roles, class and id words), never from a site's
address, so it works the same on pages nobody has seen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml.html import HtmlElement

from browser_pool.extract.dom import attribute_tokens, body_of, is_element, link_density, text_length, text_of

# Elements whose text is never page prose a reader sees: code, media fallbacks, form controls.
_NEVER_TEXT = (
    "script", "style", "noscript", "template", "svg", "math", "canvas", "iframe", "frame", "frameset",
    "object", "embed", "applet", "video", "audio", "source", "track", "map", "input", "select",
    "option", "optgroup", "datalist", "textarea", "output", "progress", "meter", "link", "meta",
)  # fmt: skip

# Page chrome: removed unless it wraps the article itself (some templates put everything in a <form>).
CHROME_TAGS = frozenset({"nav", "aside", "footer", "header", "form", "menu", "dialog"})
_CHROME_ROLES = frozenset({
    "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu",
    "menubar", "toolbar", "tablist", "tooltip",
})  # fmt: skip

# Class names that CSS frameworks use to hide an element, or to show it to screen readers only.
_HIDDEN_CLASSES = frozenset({
    "hidden", "hide", "d-none", "is-hidden", "u-hidden", "invisible", "sr-only", "visually-hidden",
    "visuallyhidden", "screen-reader-text", "screen-reader-only", "screenreader-only", "a11y-hidden",
    "offscreen", "element-invisible", "show-for-sr", "assistive-text",
})  # fmt: skip
_HIDDEN_BOXES = frozenset({"div", "section", "aside", "ul", "ol", "dl", "figure", "article", "li"})
_DISPLAY_NONE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.I
)

# Words in class or id attributes that mark widgets around an article rather than the article.
_NOISE_WORDS = frozenset({
    # advertising
    "ad", "ads", "adv", "advert", "adverts", "advertisement", "advertisements", "advertising", "advertorial",
    "adsense", "adslot", "adunit", "adunits", "adblock", "adcontainer", "adwrapper", "dfp", "sponsor",
    "sponsors", "sponsored", "promo", "promos", "promoted", "outbrain", "taboola", "banner",
    # consent and sign-up prompts
    "cookie", "cookies", "consent", "gdpr", "ccpa", "newsletter", "newsletters", "subscribe", "subscription",
    "signup", "paywall", "regwall", "cta", "notification", "notifications", "modal", "popup", "overlay",
    "lightbox", "toast", "tooltip",
    # sharing and social widgets
    "share", "shares", "sharing", "sharebar", "sharethis", "addthis", "social", "socials", "follow",
    # navigation and page furniture
    "nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs", "pagination", "pager", "sidebar",
    "widget", "widgets", "toolbar", "masthead", "footer", "topbar", "skip", "sitemap", "prev", "previous",
    # other stories and discussion
    "related", "recommended", "recommendation", "recommendations", "recirc", "recirculation", "trending",
    "popular", "mostread", "comment", "comments", "disqus", "respond", "reactions",
})  # fmt: skip
# Short article metadata: bylines, dates, captions, tags. Only removed while short, since words like
# "date" or "meta" also show up on large wrappers.
_METADATA_WORDS = frozenset({
    "byline", "bylines", "author", "authors", "dateline", "timestamp", "date", "published", "updated",
    "posted", "meta", "metadata", "caption", "captions", "figcaption", "credit", "credits", "copyright",
    "tags", "tag", "keywords", "categories", "rating", "print",
})  # fmt: skip
_METADATA_MAX_CHARS = 400

# A matched element is kept when most of its text sits in one of these: then it wraps the article
# (a layout column named "main-with-sidebar") rather than being a widget. Story cards are <article>s too,
# hence "most of its text" and "not a list of links".
_ARTICLE_XPATH = "descendant::main | descendant::article | descendant::*[@itemprop='articleBody']"
# Articles embed posts and quotes in wrappers named "widget" or "embed"; the quoted text is content.
_EMBED_XPATH = f"{_ARTICLE_XPATH} | descendant::blockquote"
_CONTENT_SHARE = 0.5
_CONTENT_MAX_LINK_DENSITY = 0.5
# Word matching is for widget containers; prose and table cells carry classes that mean other things.
_UNMATCHED_TAGS = frozenset({"html", "body", "article", "main"})
# A matched element holding this share of the page's text, or of its paragraphs' text, is more likely
# the article (in a wrapper with an unlucky class name) than a widget.
_MAX_SHARE_OF_PAGE = 0.4
_MAX_SHARE_OF_PROSE = 0.5
_MIN_PROSE_TO_GUARD = 500
_PROSE_MAX_LINK_DENSITY = 0.5


# Story-card grids (see `strip_teaser_grids`).
_CARD_TAGS = frozenset({"div", "article", "section", "li"})
_GRID_MIN_CARDS = 3
_CARD_MAX_CHARS = 600
_CARD_MIN_HEADLINE_CHARS = 10
# Text a card may show before its headline link: a section label ("Sport") or a date.
_CARD_MAX_KICKER_CHARS = 40
_GRID_SHARE_OF_PARENT = 0.6
# A grid, or a slideshow, that holds much of the page is still dropped when this much prose remains outside it:
# then it sits beside an article (a short one, under a long grid of other stories) rather than being the page.
_PROSE_BESIDE = 250

# Slideshows and carousels (see `strip_slideshows`): named so by ARIA or by the usual script libraries.
_SLIDESHOW_ROLES = frozenset({"carousel", "slideshow", "slider", "gallery"})
_SLIDESHOW_WORDS = frozenset({
    "carousel", "slideshow", "slider", "swiper", "slick", "splide", "glide", "flickity", "owl", "lightgallery",
})  # fmt: skip
_SLIDESHOW_MIN_IMAGES = 2


@dataclass(frozen=True, slots=True)
class _PageSize:
    chars: int
    prose: int


def strip_non_text(root: HtmlElement) -> None:
    """Drop code, media and form controls, hidden elements and the document head's scripts."""
    for elem in list(root.iter(*_NEVER_TEXT)):
        _drop(elem)
    for elem in list(root.iter()):
        if is_element(elem) and elem.getparent() is not None and _is_hidden(elem):
            _drop(elem)


def strip_chrome(root: HtmlElement) -> None:
    """Drop navigation, headers and footers, asides, ads, cookie banners, share and comment widgets."""
    body = body_of(root)
    page = _PageSize(chars=max(text_length(body), 1), prose=prose_chars(body))

    def visit(elem: HtmlElement) -> bool:
        if _is_chrome_element(elem):
            return _removable(elem, page, _ARTICLE_XPATH) and _drop(elem)
        return _has_noise_words(elem) and _removable(elem, page, _EMBED_XPATH) and _drop(elem)

    _visit(body, visit)


def prose_chars(elem: HtmlElement) -> int:
    """Characters in the element's paragraphs that are not mostly links: a measure of article text."""
    return sum(
        length
        for length, paragraph in ((text_length(p), p) for p in elem.iter("p"))
        if length and link_density(paragraph) < _PROSE_MAX_LINK_DENSITY
    )


def _is_chrome_element(elem: HtmlElement) -> bool:
    role = (elem.get("role") or "").strip().lower()
    return elem.tag in CHROME_TAGS or elem.tag == "figcaption" or role in _CHROME_ROLES


def _has_noise_words(elem: HtmlElement) -> bool:
    if elem.tag in _UNMATCHED_TAGS or _inside_paragraph(elem):
        return False
    words = attribute_tokens(elem)
    if not words:
        return False
    if words & _NOISE_WORDS:
        return True
    return bool(words & _METADATA_WORDS) and text_length(elem) <= _METADATA_MAX_CHARS


def _removable(elem: HtmlElement, page: _PageSize, content_xpath: str) -> bool:
    """False when the element holds much of the page or of its prose, or mostly wraps content."""
    chars = text_length(elem)
    if chars > _MAX_SHARE_OF_PAGE * page.chars:
        return False
    if page.prose >= _MIN_PROSE_TO_GUARD and prose_chars(elem) > _MAX_SHARE_OF_PROSE * page.prose:
        return False
    return not any(
        text_length(inner) >= _CONTENT_SHARE * chars and link_density(inner) <= _CONTENT_MAX_LINK_DENSITY
        for inner in elem.xpath(content_xpath)
    )


def _is_hidden(elem: HtmlElement) -> bool:
    # A `popover` stays hidden until something opens it (a hover card, a menu): it is never the article.
    if elem.get("hidden") is not None or elem.get("popover") is not None:
        return True
    # A box hidden from assistive technology is a duplicate or a widget (a carousel's clone, a card waiting for a
    # hover); an inline piece may be part of a sentence (a drop cap), so only boxes go.
    if elem.get("aria-hidden") == "true" and elem.tag in _HIDDEN_BOXES and not _inside_paragraph(elem):
        return True
    if elem.tag == "dialog" and elem.get("open") is None:
        return True
    style = elem.get("style")
    if style and _DISPLAY_NONE.search(style):
        return True
    classes = elem.get("class")
    return bool(classes) and any(name.lower() in _HIDDEN_CLASSES for name in classes.split())


def _inside_paragraph(elem: HtmlElement) -> bool:
    return any(ancestor.tag in ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6") for ancestor in elem.iterancestors())


def _visit(body: HtmlElement, visit: Callable[[HtmlElement], bool]) -> None:
    """Call `visit` on the body's descendants in document order, skipping the subtree of any it drops.

    `visit` answers True when it removed the element. A loop rather than recursion, since broken
    markup can nest elements hundreds deep.
    """
    stack = [child for child in reversed(body) if is_element(child)]
    while stack:
        elem = stack.pop()
        if not visit(elem):
            stack.extend(child for child in reversed(elem) if is_element(child))


def _drop(elem: HtmlElement) -> bool:
    """Remove an element and its text but keep the text that follows it (its tail); True when removed."""
    if elem.getparent() is None:
        return False
    elem.drop_tree()
    return True


def strip_teaser_grids(root: HtmlElement) -> None:
    """Drop grids of story cards: three or more alike siblings, each a short blurb under a headline link.

    Such grids ("most popular", "more from this section") are often marked up with class names in the
    site's own language, so they are recognised by shape instead.
    """
    body = body_of(root)
    page = _PageSize(chars=max(text_length(body), 1), prose=prose_chars(body))

    def visit(parent: HtmlElement) -> bool:
        if parent.tag in _UNMATCHED_TAGS:
            return False
        cards = _cards(parent)
        if not cards:
            return False
        if sum(text_length(card) for card in cards) >= _GRID_SHARE_OF_PARENT * text_length(parent):
            return (_removable(parent, page, _ARTICLE_XPATH) or _beside_prose(parent, page)) and _drop(parent)
        for card in cards:
            _drop(card)
        return False

    _visit(body, visit)


def _cards(parent: HtmlElement) -> list[HtmlElement]:
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    for child in parent:
        if is_element(child) and child.tag in _CARD_TAGS and (child.get("class") or "").strip():
            groups.setdefault((child.tag, child.get("class") or ""), []).append(child)
    for group in groups.values():
        if len(group) >= _GRID_MIN_CARDS and all(_is_card(card) for card in group):
            return group
    return []


def _is_card(elem: HtmlElement) -> bool:
    chars = text_length(elem)
    if not chars or chars > _CARD_MAX_CHARS:
        return False
    first_link = next((link for link in elem.iter("a") if text_length(link)), None)
    if first_link is None or text_length(first_link) < _CARD_MIN_HEADLINE_CHARS:
        return False
    # The headline link comes first, after at most a short label: the card's first words are inside it.
    headline = text_of(first_link)
    kicker = text_of(elem).find(headline)
    return 0 <= kicker <= _CARD_MAX_KICKER_CHARS


def _beside_prose(elem: HtmlElement, page: _PageSize) -> bool:
    """True when the page keeps this much prose outside the element: it sits beside an article."""
    return page.prose - prose_chars(elem) >= _PROSE_BESIDE


def strip_slideshows(root: HtmlElement) -> None:
    """Drop slideshows and carousels: a set of pictures with their captions is not the article beside it.

    A slideshow's captions can hold more text than a short article, and readability would take them for it, or
    mix them into it. A page that is only a gallery keeps its captions (too little prose is left outside).
    """
    body = body_of(root)
    page = _PageSize(chars=max(text_length(body), 1), prose=prose_chars(body))

    def visit(elem: HtmlElement) -> bool:
        if not _is_slideshow(elem):
            return False
        wraps_article = any(
            text_length(inner) >= _CONTENT_SHARE * text_length(elem) for inner in elem.xpath(_ARTICLE_XPATH)
        )
        return not wraps_article and _beside_prose(elem, page) and _drop(elem)

    _visit(body, visit)


def _is_slideshow(elem: HtmlElement) -> bool:
    if elem.tag in _UNMATCHED_TAGS:
        return False
    named = (elem.get("aria-roledescription") or "").strip().lower() in _SLIDESHOW_ROLES
    if not named and not attribute_tokens(elem) & _SLIDESHOW_WORDS:
        return False
    return sum(1 for _ in elem.iter("img", "picture")) >= _SLIDESHOW_MIN_IMAGES
