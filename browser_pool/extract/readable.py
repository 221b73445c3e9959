"""Which elements readability-lxml keeps as the article, mapped back onto our own tree.

`Document.summary()` returns re-serialised HTML in which it has moved, renamed and dropped elements. We
tag every element with a number before handing the tree over and read the numbers back, so the later
steps work on the original, cleaned tree: they render it in document order with our own whitespace
rules and can both drop noise readability kept and restore content it dropped.
"""

from __future__ import annotations

import logging

import lxml.html
from lxml import etree
from lxml.html import HtmlElement
from readability import Document

from browser_pool.extract.dom import is_element

log = logging.getLogger(__name__)

NODE_ID = "data-hive-node"


def number_nodes(root: HtmlElement) -> dict[int, HtmlElement]:
    """Give every element a numeric attribute; the map from number to element, in document order."""
    nodes: dict[int, HtmlElement] = {}
    for index, elem in enumerate(elem for elem in root.iter() if is_element(elem)):
        elem.set(NODE_ID, str(index))
        nodes[index] = elem
    return nodes


def readability_selection(root: HtmlElement) -> set[int] | None:
    """Numbers of the elements readability puts in its summary, or None when it finds no article.

    `root` must have been numbered with `number_nodes`; readability works on its own copy.
    """
    try:
        summary = Document(root).summary(html_partial=True)
    except Exception as exc:  # readability wraps any internal failure in a bare ValueError subclass
        log.debug("readability failed: %s", exc)
        return None
    if not summary or not summary.strip():
        return None
    if summary.lstrip().startswith("<body"):
        # Readability found no article and handed back the whole body: that is not a choice of content.
        return None
    try:
        tree = lxml.html.document_fromstring(summary)
    except (etree.ParserError, ValueError):
        return None
    selected: set[int] = set()
    for elem in tree.iter():
        raw = elem.get(NODE_ID) if is_element(elem) else None
        if raw is not None and raw.isdigit():
            selected.add(int(raw))
    return selected or None
