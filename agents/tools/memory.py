"""Memory search: the user's saved notes, ranked by relevance to a query.

With an embeddings endpoint the notes are ranked by cosine similarity to the query; without one (or when it
fails) by BM25 over words, each CJK character counting as a word and title words counting double. Only notes that
share something with the query are returned, best first, so every returned note scores higher than (or, on a
tie, as high as) every note left out.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from agents.llm import ModelConfig
from agents.llm.egress import guarded_async_client
from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolOutput
from agents.tools.chunking import WIDE_CHARS
from browser_pool.types import JsonObject

log = logging.getLogger(__name__)

# texts -> one vector per text, in order.
Embed = Callable[[list[str]], Awaitable[list[list[float]]]]

K1 = 1.5
B = 0.75
TITLE_BOOST = 2.0
# What of a note is embedded and shown: enough to judge it, short of providers' input limits.
NOTE_CHARS = 4_000
SHOWN_CHARS = 1_500
EMBEDDING_BATCH = 10  # some providers (DashScope) accept at most 10 inputs per request

_METHODS = {"bm25": "keyword relevance, BM25", "embeddings": "similarity of meaning, embeddings"}
_TOKEN = re.compile(rf"{WIDE_CHARS}|(?:(?!{WIDE_CHARS})[^\W_])+")


class MemoryNote(TypedDict):
    """One of the user's saved notes, as the memory tool searches them."""

    id: int | str
    title: str
    body: str


def tokenize(text: str) -> list[str]:
    """Lower-cased words; each CJK character is a token of its own (those scripts put no spaces between words)."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


@dataclass(frozen=True, slots=True)
class Ranked:
    index: int
    note: MemoryNote
    score: float


def bm25_scores(
    query: str, notes: Sequence[MemoryNote], *, k1: float = K1, b: float = B, title_boost: float = TITLE_BOOST
) -> list[float]:
    """Each note's BM25 score for the query; title words count `title_boost` times."""
    terms = set(tokenize(query))
    documents: list[dict[str, float]] = []
    lengths: list[float] = []
    for note in notes:
        title, body = tokenize(str(note.get("title") or "")), tokenize(str(note.get("body") or ""))
        frequencies = {token: title_boost * count for token, count in Counter(title).items()}
        for token, count in Counter(body).items():
            frequencies[token] = frequencies.get(token, 0.0) + count
        documents.append(frequencies)
        lengths.append(title_boost * len(title) + len(body))
    if not documents or not terms:
        return [0.0] * len(documents)
    average = sum(lengths) / len(lengths) or 1.0
    idf = {}
    for term in terms:
        having = sum(1 for document in documents if term in document)
        idf[term] = math.log(1 + (len(documents) - having + 0.5) / (having + 0.5))
    scores = []
    for document, length in zip(documents, lengths, strict=True):
        score = 0.0
        for term in terms:
            frequency = document.get(term, 0)
            if frequency:
                score += idf[term] * frequency * (k1 + 1) / (frequency + k1 * (1 - b + b * length / average))
        scores.append(score)
    return scores


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


def top(notes: Sequence[MemoryNote], scores: Sequence[float], limit: int) -> list[Ranked]:
    """The `limit` best notes with a positive score, best first; ties keep the notes' order."""
    ranked = sorted(
        (Ranked(index, note, score) for index, (note, score) in enumerate(zip(notes, scores, strict=True))),
        key=lambda item: (-item.score, item.index),
    )
    return [item for item in ranked if item.score > 0][:limit]


def note_text(note: MemoryNote) -> str:
    text = f"{note.get('title') or ''}\n{note.get('body') or ''}".strip()
    return text[:NOTE_CHARS] or "(empty note)"


def openai_embedder(model: ModelConfig, embedding_model: str, *, batch_size: int = EMBEDDING_BATCH) -> Embed:
    """An `Embed` over the profile's OpenAI-compatible endpoint (`embeddings.create`), in batches."""
    import openai  # here, not at the top: the web server reads the notes' shape from this module, never embeds

    async def embed(texts: list[str]) -> list[list[float]]:
        client = openai.AsyncOpenAI(
            base_url=model.endpoint,
            api_key=model.api_key or "not-needed",
            timeout=model.timeout_s,
            max_retries=2,
            http_client=guarded_async_client(model.egress, timeout_s=model.timeout_s) if model.egress else None,
        )
        vectors: list[list[float]] = []
        try:
            for start in range(0, len(texts), batch_size):
                # "float": the SDK asks for base64 by default, which several compatible servers do not speak.
                response = await client.embeddings.create(
                    model=embedding_model, input=texts[start : start + batch_size], encoding_format="float"
                )
                vectors += [item.embedding for item in sorted(response.data, key=lambda item: item.index)]
        finally:
            await client.close()
        return vectors

    return embed


def _render(query: str, found: list[Ranked], method: str) -> str:
    if not found:
        return f'No saved note matches "{query}".'
    lines = [f'{len(found)} saved note{"s" if len(found) > 1 else ""} match "{query}", best first ({method}):']
    for number, item in enumerate(found, start=1):
        body = str(item.note.get("body") or "")
        body = body if len(body) <= SHOWN_CHARS else body[:SHOWN_CHARS] + " …"
        title = item.note.get("title") or "(untitled)"
        lines.append(f"\n{number}. [{item.note.get('id')}] {title} (score {item.score:.3f})\n{body}")
    return "\n".join(lines)


def memory_tools(*, notes: Sequence[MemoryNote], embed: Embed | None = None) -> list[Tool]:
    """search_memory over the user's `notes`; `embed` (e.g. `openai_embedder(...)`) ranks by meaning."""
    vectors: list[list[float]] = []  # the notes' embeddings, computed once for this set of tools

    async def scores_by_meaning(embed: Embed, query: str) -> list[float]:
        if not vectors:
            embedded = await embed([note_text(note) for note in notes])
            if len(embedded) != len(notes):
                raise ValueError(f"{len(embedded)} embeddings came back for {len(notes)} notes")
            vectors.extend(embedded)
        (query_vector,) = await embed([query])
        return [cosine(query_vector, vector) for vector in vectors]

    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        query, limit = arguments["query"].strip(), int(arguments.get("limit", 5))
        if not notes:
            return ToolOutput(text="The user has no saved notes.", data={"results": [], "method": "none"})
        method, note = "bm25", ""
        scores: list[float] | None = None
        if embed is not None:
            try:
                scores, method = await scores_by_meaning(embed, query), "embeddings"
            except Exception as exc:  # keyword search still answers when the embeddings endpoint does not
                log.warning("embedding search failed, using BM25: %s", exc)
                note = f"The embeddings endpoint failed ({exc.__class__.__name__}: {exc}); ranked by keywords.\n"
        if scores is None:
            scores = bm25_scores(query, notes)
        found = top(notes, scores, limit)
        results = [{"id": item.note.get("id"), "title": item.note.get("title"), "score": item.score} for item in found]
        return ToolOutput(
            text=note + _render(query, found, _METHODS[method]), data={"results": results, "method": method}
        )

    return [
        Tool(
            name="search_memory",
            description=(
                "Search the user's saved notes (preferences, facts, past results) for what is relevant to a query. "
                "Returns the best matches with their text."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1, "description": "What to look for."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            handler=run,
            read_only=True,
            source=SOURCE_AGENT,
        )
    ]
