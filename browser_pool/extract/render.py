"""Element subtrees to plain text: one paragraph per block, line breaks kept, spaces collapsed."""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml.html import HtmlElement

from browser_pool.extract.dom import is_element

BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "html", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table",
    "caption", "tbody", "thead", "tfoot", "ul",
})  # fmt: skip
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LINE_TAGS = frozenset({"li", "tr", "dt", "dd"})

_PARAGRAPH = "\x00P"
_LINE = "\x00L"
_CELL = "\x00C"
# Spaces inside <pre> are content (code indentation); they hide behind this mark while other spaces collapse.
_PRE_SPACE = "\x01"
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")
_MARKERS = re.compile(r"(?:\s*\x00[PLC]\s*)+")


def render(root: HtmlElement, keep: Callable[[HtmlElement], bool] | None = None) -> str:
    """The text a reader sees in `root`, skipping every descendant for which `keep` says no.

    A skipped element's tail (the text after it, which belongs to its parent) is still written.
    """
    return _finish(_pieces(root, keep or _keep_all))


def _keep_all(_elem: HtmlElement) -> bool:
    return True


def _pieces(root: HtmlElement, keep: Callable[[HtmlElement], bool]) -> list[str]:
    """Text pieces and layout marks in document order.

    An explicit stack instead of recursion: broken markup (unclosed inline tags) nests thousands deep.
    """
    parts: list[str] = []
    # (element, closing, inside <pre>)
    stack: list[tuple[HtmlElement, bool, bool]] = [(root, False, False)]
    while stack:
        elem, closing, in_pre = stack.pop()
        if closing:
            _close(elem.tag, parts)
            if elem is not root:
                _text(elem.tail, parts, in_pre=in_pre)
            continue
        if elem is not root and (not is_element(elem) or not keep(elem)):
            _text(elem.tail, parts, in_pre=in_pre)
            continue
        inner_pre = in_pre or elem.tag == "pre"
        _open(elem.tag, parts)
        _text(elem.text, parts, in_pre=inner_pre)
        # The closing entry carries the parent's <pre> state: the tail belongs to the parent.
        stack.append((elem, True, in_pre))
        stack.extend((child, False, inner_pre) for child in reversed(elem))
    return parts


def _open(tag: str, parts: list[str]) -> None:
    if tag == "br" or tag in _LINE_TAGS:
        parts.append(_LINE)
    elif tag in BLOCK_TAGS:
        parts.append(_PARAGRAPH)
    if tag == "li":
        parts.append("- ")


def _close(tag: str, parts: list[str]) -> None:
    if tag in ("td", "th"):
        parts.append(_CELL)
    elif tag in _LINE_TAGS:
        parts.append(_LINE)
    elif tag in BLOCK_TAGS:
        parts.append(_PARAGRAPH)


def _text(text: str | None, parts: list[str], *, in_pre: bool) -> None:
    if not text:
        return
    text = _INVISIBLE.sub("", text)
    if in_pre:
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if index:
                parts.append(_LINE)
            parts.append(line.replace("\t", "    ").replace(" ", _PRE_SPACE))
        return
    parts.append(_SPACES.sub(" ", text))


def _join(parts: list[str]) -> str:
    """Concatenate text pieces, spacing Latin words apart from CJK text where an element boundary meets it.

    Japanese and Chinese pages set a link or an emphasised Latin name inside CJK text without spaces but
    show it apart; without a space the two would read, and tokenise, as one word.
    """
    out: list[str] = []
    previous = ""
    for part in parts:
        if part and previous and _meet_across_scripts(previous[-1], part[0]):
            out.append(" ")
        out.append(part)
        if part:
            previous = part
    return "".join(out)


def _meet_across_scripts(left: str, right: str) -> bool:
    return bool(
        (_CJK.match(left) and _LATIN_OR_DIGIT.match(right)) or (_LATIN_OR_DIGIT.match(left) and _CJK.match(right))
    )


def _finish(parts: list[str]) -> str:
    def marker(match: re.Match[str]) -> str:
        found = match.group(0)
        if _PARAGRAPH in found:
            return "\n\n"
        if _LINE in found:
            return "\n"
        # Cells of one row stay on one line; a row's last cell needs no separator.
        return " | " if match.end() < len(joined) else ""

    joined = _join(parts)
    text = _MARKERS.sub(marker, joined)
    lines = [line.strip(" ") for line in text.split("\n")]
    text = "\n".join("" if line == "-" else line for line in lines).replace(_PRE_SPACE, " ")
    return re.sub(r"\n{3,}", "\n\n", text).strip()
