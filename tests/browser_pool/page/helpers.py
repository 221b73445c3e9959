"""Small helpers for reading an element list in the page-side tests."""

from __future__ import annotations

from browser_pool.observe import ElementList


def line_of(listing: ElementList, text: str) -> str:
    """The one line of the list that mentions `text`."""
    matches = [line for line in listing.lines if text in line]
    assert len(matches) == 1, f"{text!r} in {listing.text}"
    return matches[0]


def index_of(listing: ElementList, text: str) -> int:
    """The index of the one listed element whose name is exactly `text`."""
    matches = [item.index for item in listing.items if item.text == text]
    assert len(matches) == 1, f"{text!r} in {listing.text}"
    return matches[0]
