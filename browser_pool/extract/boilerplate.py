"""Blocks inside the chosen article that are still not prose: repeated titles, widget labels, link teasers."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from browser_pool.extract.dom import link_density, text_of
from browser_pool.extract.render import BLOCK_TAGS, HEADING_TAGS

# A whole block consisting of one of these is a widget label or an ad slot, not part of the article.
_LABEL = re.compile(
    r"""^(?:
        advert(?:isement)?s?|sponsored(?:\ content)?|ad|ads|promoted|
        advertisement\W*(?:-|–)?\W*(?:scroll|continue)\ .*|(?:story|article)\ continues\ (?:below|after).*|
        continue\ reading.*|scroll\ (?:down\ )?to\ continue.*|
        share(?:\ (?:this|the|on|via|article|story|post|page).*)?|shares?|tweet|pin(?:\ it)?|e-?mail|print|copy\ link|
        like\ this|(?:share|follow)\ (?:this|us).*|like\ loading.*|loading|
        image\ (?:copyright|caption|source).*|media\ caption|(?:photo|image|picture)\ credit.*|
        related(?:\ (?:articles?|posts?|stories|content|news|links|topics|videos?|coverage))?|
        (?:read|see|view|show)\ (?:more|also|all|next).*|more\ (?:stories|news|articles|from\ .*)|
        (?:leave\ a\ )?(?:comments?|reply|replies)|\d+\ (?:comments?|replies|shares)|
        (?:add|post|write|view|show|hide)\ (?:a\ |your\ )?(?:comments?|review|reply).*|
        text\ size|font\ size|listen(?:\ to\ (?:this|the)\ (?:article|story))?|\d+\ min(?:ute)?s?\ read|
        reading\ time.*|tags?(?::.*)?|filed\ under.*|topics?:.*|categor(?:y|ies):.*|
        subscribe(?:\ now)?|sign\ up(?:\ now)?|log\ ?in|sign\ in|register|
        thanks\ for\ (?:watching|reading).*|thank\ you\ for\ (?:watching|reading).*|visit\ (?:the\ )?website|
        back\ to\ top|skip\ to\ .*|previous(?:\ (?:article|post|story))?|next(?:\ (?:article|post|story))?|
        video|watch|play|close|menu|search
    )\W*$""",
    re.IGNORECASE | re.VERBOSE,
)
_LABEL_MAX_CHARS = 80
# Inline elements are judged only when they make up their parent's whole text (a lone "Share" link).
_STANDALONE_INLINE = frozenset({"span", "a", "strong", "em", "b", "small", "time", "label", "button"})

# "Read more: <a>Another story</a>": a teaser for another page, mostly link text behind a label.
_TEASER = re.compile(
    r"^\W*(?:read|see|watch|listen|also|more|related|recommended|don'?t\ miss|must\ read|trending|"
    r"popular|latest|top\ stories|you\ (?:may|might)\ (?:also\ )?like)\b[^:|\n]{0,30}[:|]",
    re.IGNORECASE | re.VERBOSE,
)
_TEASER_MAX_CHARS = 300
_TEASER_LINK_SHARE = 0.5

# A label announcing links to other stories; the links follow it as separate blocks.
_RUN_LABEL = re.compile(
    r"^(?:don'?t\ miss|must\ read|read\ (?:more|next|also)|also\ read|see\ also|related(?:\ (?:articles?|stories|"
    r"posts?|content|news|links|coverage|reading))?|more\ (?:on\ this(?:\ story|\ topic)?|stories|news|from\ .{1,40})|"
    r"recommended(?:\ for\ you)?|you\ (?:may|might)\ (?:also\ )?(?:like|enjoy)|(?:most\ )?popular|most\ read|trending"
    r"(?:\ now)?|top\ stories|latest\ (?:news|stories))\W*$",
    re.IGNORECASE | re.VERBOSE,
)
_RUN_LABEL_TAGS = ("p", "div", "h2", "h3", "h4", "h5", "h6", "strong", "b", "span")
# Never taken for a label's block, however little text the page has.
_PAGE_TAGS = frozenset({"html", "body", "main", "article"})


def is_noise_block(elem: HtmlElement, titles: list[str]) -> bool:
    """True for a block inside the article that only repeats the title or labels a widget."""
    if elem.tag not in BLOCK_TAGS and elem.tag not in _STANDALONE_INLINE:
        return False
    text = text_of(elem)
    if not text:
        return False
    if elem.tag in _STANDALONE_INLINE and not _stands_alone(elem, text):
        # A word like "print" or "video" inside a sentence is part of the sentence.
        return False
    if elem.tag in HEADING_TAGS and _repeats_title(text, titles):
        return True
    if len(text) <= _LABEL_MAX_CHARS and _LABEL.match(text):
        return True
    return (
        len(text) <= _TEASER_MAX_CHARS and _TEASER.match(text) is not None and link_density(elem) >= _TEASER_LINK_SHARE
    )


def _stands_alone(elem: HtmlElement, text: str) -> bool:
    parent = elem.getparent()
    return parent is None or text_of(parent) == text


def _repeats_title(text: str, titles: list[str]) -> bool:
    heading = _comparable(text)
    if not heading:
        return False
    # "Headline | Site name" titles contain the headline; a short heading inside one is just a common word.
    return any(heading == title or (len(heading) >= 20 and heading in title) for title in titles)


def comparable_titles(titles: list[str]) -> list[str]:
    return [title for title in (_comparable(raw) for raw in titles) if title]


def _comparable(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def strip_teaser_runs(root: HtmlElement) -> None:
    """Drop a "Don't miss" / "Related" label together with the run of link teasers that follows it."""
    for elem in list(root.iter(*_RUN_LABEL_TAGS)):
        if elem.getparent() is None or not _RUN_LABEL.match(text_of(elem)):
            continue
        block = _enclosing_block(elem)
        if block is None or block.tag in _PAGE_TAGS or block.getparent() is None or text_of(block) != text_of(elem):
            continue
        following = block.getnext()
        while following is not None and _is_teaser(following):
            after = following.getnext()
            following.drop_tree()
            following = after
        block.drop_tree()


def _enclosing_block(elem: HtmlElement) -> HtmlElement | None:
    node: HtmlElement | None = elem
    while node is not None and node.tag not in BLOCK_TAGS:
        node = node.getparent()
    return node


def _is_teaser(elem: HtmlElement) -> bool:
    if not isinstance(elem.tag, str):
        return False
    text = text_of(elem)
    return not text or (len(text) <= _TEASER_MAX_CHARS * 2 and link_density(elem) >= _TEASER_LINK_SHARE)
