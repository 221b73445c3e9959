"""The length limit: cut at a word boundary and say visibly how much was left out."""

from __future__ import annotations

import re

_NON_WORD = re.compile(r"\W")
_DANGLING = " \t\r\n\f\v\u00a0|-"


def truncation_mark(kept: int, total: int) -> str:
    """The note appended to cut text; the blank line keeps it apart from the last paragraph."""
    return f"\n\n[… truncated, {kept} of {total} characters]"


def apply_limit(text: str, limit: int) -> tuple[str, bool]:
    """`text` at most `limit` characters long (plus the mark), and whether it was cut.

    The cut falls on a word boundary; only a text whose first `limit` characters are a single word
    (no space or punctuation at all) is cut inside it, as there is nothing better to keep.
    """
    if limit < 1:
        raise ValueError(f"limit must be a positive number of characters, got {limit}")
    if len(text) <= limit:
        return text, False
    kept = cut_at_word(text, limit)
    return kept + truncation_mark(len(kept), len(text)), True


def cut_at_word(text: str, limit: int) -> str:
    """The start of `text`, at most `limit` characters, ending at a word boundary (no mark)."""
    if len(text) <= limit:
        return text
    # A cut right after a list bullet or a table separator would leave it dangling.
    return text[: _cut_point(text, limit)].rstrip(_DANGLING)


def _cut_point(text: str, limit: int) -> int:
    if _NON_WORD.match(text[limit - 1]) or _NON_WORD.match(text[limit]):
        return limit
    last_boundary = -1
    for match in _NON_WORD.finditer(text, 0, limit):
        last_boundary = match.end()
    return last_boundary if last_boundary > 0 else limit
