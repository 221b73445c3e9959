"""Token estimates and chunking: text longer than a model call's budget is split into chunks that each fit.

Cuts fall on paragraph boundaries, else sentence and line ends, else word and clause boundaries (CJK text has
no spaces, so its punctuation counts), and only as a last resort between characters. Each chunk after the first
repeats the tail of the one before it, so a sentence never loses its context; the chunks cover the text in order,
with no gap.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import accumulate

from browser_pool.extract import truncation_mark

MAX_OVERLAP_TOKENS = 200

# A rough count that errs on the safe side for most tokenizers: a CJK character is about one token, other text
# about four characters per token.
CHARS_PER_TOKEN = 4
# CJK ideographs, kana, Hangul and fullwidth forms: each such character counts (and is searched) as one token.
WIDE_CHARS = (
    "[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff]"
)
_WIDE = re.compile(WIDE_CHARS)
# Where text may be cut, coarsest first: paragraphs; lines and sentences; words and clauses. Below that, characters.
_BOUNDARIES = (
    re.compile(r"\n[ \t]*\n\s*"),
    re.compile(r"\n\s*|[.!?…]+[\"'”’)\]]*\s+|[。！？；]+[”’」』）)]*\s*"),
    re.compile(r"\s+|[，、,;；:：]\s*"),
)


def estimate_tokens(text: str) -> int:
    wide = len(_WIDE.findall(text))
    return wide + math.ceil((len(text) - wide) / CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class Chunk:
    """`text[start:end]` of the text that was split; consecutive chunks overlap a little and leave no gap."""

    start: int
    end: int
    text: str
    tokens: int


class _Counter:
    """Token estimates of any span in O(1), from prefix counts of wide characters; `fits` also holds a span to
    `max_chars` characters when one is given."""

    def __init__(self, text: str, budget: int, max_chars: int | None = None) -> None:
        self.text = text
        self.budget = budget
        self.max_chars = max_chars
        self._wide = list(accumulate((1 if _WIDE.match(char) else 0 for char in text), initial=0))

    def tokens(self, start: int, end: int) -> int:
        wide = self._wide[end] - self._wide[start]
        return wide + math.ceil((end - start - wide) / CHARS_PER_TOKEN)

    def fits(self, start: int, end: int) -> bool:
        return self.tokens(start, end) <= self.budget and (self.max_chars is None or end - start <= self.max_chars)


def _units(counter: _Counter, start: int, end: int, level: int = 0) -> list[tuple[int, int]]:
    """Contiguous spans covering [start, end), each within the budget, cut at the coarsest boundary that works."""
    if counter.fits(start, end):
        return [(start, end)]
    if level == len(_BOUNDARIES):
        return [(index, index + 1) for index in range(start, end)]
    cuts = [match.end() for match in _BOUNDARIES[level].finditer(counter.text, start, end)]
    edges = [start, *(cut for cut in cuts if start < cut < end), end]
    units: list[tuple[int, int]] = []
    for left, right in zip(edges, edges[1:], strict=False):
        units += _units(counter, left, right, level + 1)
    return units


def _overlap_start(counter: _Counter, start: int, end: int, allowance: int, next_end: int) -> int:
    """Where the next chunk begins: the earliest sentence (else word) boundary in this chunk's tail that keeps the
    repeated text within `allowance` tokens and the next chunk's first unit (up to `next_end`) within the limits;
    `end` when none does."""
    if allowance > 0:
        for pattern in _BOUNDARIES[1:]:
            for match in pattern.finditer(counter.text, start, end):
                cut = match.end()
                if start < cut < end and counter.tokens(cut, end) <= allowance and counter.fits(cut, next_end):
                    return cut
    return end


def split_into_chunks(
    text: str, budget_tokens: int, *, overlap_tokens: int | None = None, max_chars: int | None = None
) -> list[Chunk]:
    """Split `text` into chunks of at most `budget_tokens` (estimated) each, in order, covering all of it.

    A text within the budget is one chunk. Each later chunk repeats the last sentence or so of the one before
    (at most `overlap_tokens`, by default a tenth of the budget up to 200) so no sentence loses its context.
    `max_chars` also holds every chunk to that many characters (the pages `get_page_content` shows).
    """
    if budget_tokens < 1:
        raise ValueError(f"the token budget must be positive, got {budget_tokens}")
    if max_chars is not None and max_chars < 1:
        raise ValueError(f"the page size must be a positive number of characters, got {max_chars}")
    overlap = min(budget_tokens // 10, MAX_OVERLAP_TOKENS) if overlap_tokens is None else overlap_tokens
    counter = _Counter(text, budget_tokens, max_chars)
    units = _units(counter, 0, len(text))
    chunks: list[Chunk] = []
    start, index = 0, 0
    while index < len(units):
        end = units[index][1]
        index += 1
        while index < len(units) and counter.fits(start, units[index][1]):
            end = units[index][1]
            index += 1
        chunks.append(Chunk(start, end, text[start:end], counter.tokens(start, end)))
        if index < len(units):
            room = budget_tokens - counter.tokens(end, units[index][1])
            start = _overlap_start(counter, start, end, min(overlap, room), units[index][1])
    return chunks


@dataclass(frozen=True, slots=True)
class TextPage:
    """One page of a long text as the model reads it: `text` is `whole[start:end]` without its edge whitespace."""

    number: int
    total: int
    start: int
    end: int
    length: int
    text: str

    @property
    def position(self) -> str:
        return f"page {self.number} of {self.total} (characters {self.start + 1}–{self.end} of {self.length})"


def text_pages(text: str, *, page_chars: int, budget_tokens: int) -> list[TextPage]:
    """`text` as consecutive pages without overlap or gap, each at most `page_chars` characters and `budget_tokens`
    tokens, cut at the coarsest boundary that fits (paragraph, then sentence, then word)."""
    chunks = split_into_chunks(text, budget_tokens, overlap_tokens=0, max_chars=page_chars)
    return [
        TextPage(number, len(chunks), chunk.start, chunk.end, len(text), chunk.text.strip())
        for number, chunk in enumerate(chunks, start=1)
    ]


def fit_to_budget(text: str, budget_tokens: int) -> tuple[str, bool]:
    """The first chunk's worth of `text` and whether anything was left out (with a visible mark)."""
    chunks = split_into_chunks(text, budget_tokens, overlap_tokens=0)
    if len(chunks) == 1:
        return text, False
    kept = chunks[0].text.rstrip()
    return kept + truncation_mark(len(kept), len(text)), True
