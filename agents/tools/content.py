"""Page content tools: read the active tab, summarise it, extract structured data from it.

- `get_page_content`: the tab's main text (browser_pool.extract), fenced as untrusted data, one page at a time: a long
  article is kept whole and shown in pages of at most `page_chars` characters, each saying where it sits and how to
  get the next. It also pages through the saved content of the tabs the user shared with the message, and through the
  text of the conversation's files (a PDF or text file a page downloaded or the user uploaded; agents.tools.files).
- `summarize_page`: the whole text; text over the model's budget is split into chunks on paragraph, then sentence, then word
  boundaries, with a small overlap; each chunk is summarised by its own model call and the partial summaries are
  combined by one more (map-reduce), so no part of a long text is left out of the summary.
- `extract_data`: the model extracts JSON or a table; the reply is validated (JSON parses and fits the optional
  JSON schema; a table has a header and the same number of cells on every row) and asked for once more with the
  error before the tool gives up, so the caller gets valid data or a clear error. A text over one call's budget is
  read in parts and the results
  merged: table rows appended under one header, JSON arrays concatenated and objects merged key by key.

The model calls go through the turn's `LLMClient` (a factory the worker passes) and are recorded in the run's
debug log through the sink, like the loop's own calls.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match

from agents.llm.messages import ChatMessage
from agents.observation import fence
from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolError, ToolOutput
from agents.tools.chunking import TextPage, estimate_tokens, split_into_chunks, text_pages
from agents.tools.files import FileReader
from agents.tools.structured import (
    InvalidOutput,
    merge_json,
    merge_tables,
    parse_json_reply,
    parse_table,
    render_table,
    same_header,
)
from agents.tools.summary import focus_of, summarize_text
from agents.tools.toolmodel import (
    CONCURRENT_CHUNKS,
    SYSTEM_UNTRUSTED,
    ModelClientFactory,
    ToolModel,
    conversation,
    tool_model,
)
from browser_pool.errors import PoolError
from browser_pool.extract import ExtractedContent, extract_page
from browser_pool.types import JsonObject

SUMMARY_TIMEOUT_S = 300.0
EXTRACT_TIMEOUT_S = 180.0

NO_BROWSER = "the browser session is restored on the next turn; tell the user the browser is unavailable right now"


# -- reading the page -------------------------------------------------------------------------------------------


async def read_active_tab(ctx: ToolContext) -> ExtractedContent:
    """The active tab's whole main content; restricted and empty pages become a ToolError with their reason."""
    try:
        content = await extract_page(ctx.tabs.active_page)
    except PoolError as exc:
        raise ToolError(f"the browser is not available: {exc}", NO_BROWSER) from exc
    if content.method == "restricted":
        raise ToolError(content.reason, "navigate to a web page first, or tell the user this page cannot be read")
    if not content.ok:
        raise ToolError(
            content.reason or "the page has no text to read",
            "the page may still be loading: wait a moment and try again, or take a screenshot to see it",
        )
    # A page may show a secret typed earlier back: masked before a model (this turn's, or a tool's own) reads it.
    return dataclasses.replace(content, title=ctx.mask(content.title), url=ctx.mask(content.url),
                               text=ctx.mask(content.text))  # fmt: skip


def _page_block(title: str, url: str, text: str, label: str) -> str:
    """Title, URL and text together inside one fence: all three come from the page."""
    return fence(f"Title: {title or '(untitled)'}\nURL: {url}\n\n{text}", label=label)


def _safety_note(content: ExtractedContent) -> str:
    if not content.truncated:
        return ""
    return (
        f"The page's text is {content.length} characters long, over the safety bound on what is read from one page; "
        "only its start was read (the mark at its end says how much)."
    )


@dataclass(frozen=True, slots=True)
class _SharedTab:
    """A tab the user shared with the message, as saved when it was added to the context."""

    title: str
    url: str
    content: str


def _shared(tabs: Sequence[Mapping[str, Any]]) -> list[_SharedTab]:
    return [
        _SharedTab(str(tab.get("title") or ""), str(tab.get("url") or ""), str(tab.get("content") or ""))
        for tab in tabs
    ]


def _get_page_content(page_chars: int, budget_tokens: int, shared: list[_SharedTab], files: FileReader | None) -> Tool:
    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        number = int(arguments.get("page", 1))
        tab = arguments.get("tab")
        file_id = arguments.get("file_id")
        label = "page content"
        if file_id is not None and files is not None:
            if tab is not None:
                raise ToolError("give either tab or file_id, not both", "read the tab and the file one at a time")
            stored, read = await files.read(str(file_id))
            title, url, text, notes = stored.name, f"file {stored.id} ({stored.content_type})", read.text, [read.note]
            how, truncated, label = f'get_page_content with file_id="{stored.id}" and page={{n}}', False, "file content"
        elif tab is None:
            content = await read_active_tab(ctx)
            title, url, text, notes = content.title, content.url, content.text, [_safety_note(content)]
            how, truncated = "get_page_content with page={n}", content.truncated
        else:
            if not 1 <= int(tab) <= len(shared):
                raise ToolError(
                    f"there is no shared tab {tab}: the user shared {len(shared)} tab(s) with this message",
                    f"give tab a number from 1 to {len(shared)}, or leave it out to read the active tab",
                )
            saved = shared[int(tab) - 1]
            title, url, text, notes = saved.title, saved.url, saved.content, ["The tab's content as saved when shared."]
            how, truncated = f"get_page_content with tab={tab} and page={{n}}", False
        pages = text_pages(text, page_chars=page_chars, budget_tokens=budget_tokens)
        if number > len(pages):
            raise ToolError(
                f"page {number} is past the end: the text has {len(pages)} page(s) ({len(text)} characters)",
                f"ask for a page from 1 to {len(pages)}",
            )
        shown = pages[number - 1]
        if shown.total > 1:
            notes.append(_page_note(shown, how))
        block = _page_block(title, url, shown.text, label)
        return ToolOutput(
            text="\n".join([*(note for note in notes if note), block]),
            data={
                "url": url,
                "length": len(text),
                "page": shown.number,
                "pages": shown.total,
                "start": shown.start,
                "end": shown.end,
                "truncated": truncated,
            },
        )

    properties: dict[str, Any] = {
        "page": {
            "type": "integer",
            "minimum": 1,
            "default": 1,
            "description": "Which page of a long text to read: 1 first, then 2, and so on.",
        }
    }
    if files is not None:
        properties["file_id"] = {
            "type": "string",
            "description": "Read a file of this conversation (a download or an upload: PDF or text) by its id.",
        }
    if shared:
        properties["tab"] = {
            "type": "integer",
            "minimum": 1,
            "maximum": len(shared),
            "description": "Read the saved content of shared tab N (as numbered with the message) instead of the "
            "active tab.",
        }
    return Tool(
        name="get_page_content",
        description=(
            f"Read the active tab's main text (page furniture removed), in pages of {page_chars} characters: page=2 "
            "and on for more" + ("; tab=N reads shared tab N instead." if shared else ".")
        ),
        parameters={"type": "object", "properties": properties, "additionalProperties": False},
        handler=run,
        read_only=True,
        source=SOURCE_AGENT,
        terse=True,
    )


def _page_note(page: TextPage, how: str) -> str:
    where = f"This is {page.position}."
    if page.number < page.total:
        return f"{where} The text goes on: read the next page with {how.format(n=page.number + 1)}."
    return f"{where} It is the last page."


def _summarize_page(factory: ModelClientFactory, budget_tokens: int) -> Tool:
    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        given = str(arguments.get("text") or "")
        content = None if given.strip() else await read_active_tab(ctx)
        text = given if content is None else content.text
        async with tool_model(factory, ctx, "summarize_page") as model:
            summary, chunks = await summarize_text(model, text, budget_tokens, focus_of(arguments))
        tokens = estimate_tokens(text)
        how = (
            f"Read in {chunks} chunks: the text (about {tokens} tokens) was over the model's budget of "
            f"{budget_tokens} tokens per call, so each chunk was summarised and the summaries combined."
            if chunks > 1
            else "Read in 1 chunk (within the model's budget)."
        )
        if content is not None and content.truncated:
            how += " " + _safety_note(content)
        if content is None:
            block = fence(summary, label="summary of the given text")
        else:  # the page's title and URL go inside the fence with the summary: they come from the page too
            block = _page_block(content.title, content.url, summary, "summary of page content")
        return ToolOutput(
            text=f"{how}\n{block}",
            data={"chunks": chunks, "tokens": tokens, **model.stats()},
        )

    return Tool(
        name="summarize_page",
        description=(
            "Summarise the active tab's content, or a given text. Long content is read in chunks and the "
            "summaries combined, so this works on pages of any length."
        ),
        parameters={
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "Text to summarise instead of the active tab's content."},
                "focus": {"type": "string", "description": "What the summary should concentrate on."},
            },
            "additionalProperties": False,
        },
        handler=run,
        read_only=True,
        source=SOURCE_AGENT,
        timeout_s=SUMMARY_TIMEOUT_S,
    )


# -- structured extraction ----------------------------------------------------------------------------------------

EXTRACT_SYSTEM = "You extract structured data from web pages exactly as asked, without inventing values. " + (
    SYSTEM_UNTRUSTED
)


def _extract_prompt(
    instruction: str,
    form: str,
    schema: JsonObject | None,
    content: str,
    part: tuple[int, int] | None = None,
    columns: str = "",
) -> str:
    if form == "json":
        shape = "Reply with only the JSON value, no prose."
        if schema is not None:
            shape += " It must match this JSON schema:\n" + json.dumps(schema, ensure_ascii=False)
    else:
        shape = "Reply with only a Markdown table: a header row, a separator row, the same columns on every row."
    if part is not None:
        number, total = part
        empty = "an empty value of that shape, such as []" if form == "json" else "the header and separator rows only"
        shape += (
            f"\nThis is part {number} of {total} of a longer text; the other parts are read separately and the "
            f"results merged. Extract what this part holds; if it holds none of it, reply with {empty}."
        )
    if columns:
        shape += f"\n{columns}"
    return f"Extract: {instruction}\n{shape}\n\n{content}"


_TRY_AGAIN = (
    "simplify the instruction, loosen or drop the schema, try the other format, or read the page with get_page_content"
)


async def _ask_valid(model: ToolModel, messages: list[ChatMessage], parse: Callable[[str], Any], kind: str) -> Any:
    """The model's parsed reply; an invalid one is asked for once more with the error, then a ToolError."""
    for attempt in (1, 2):
        reply = await model.ask(messages)
        try:
            return parse(reply)
        except InvalidOutput as exc:
            if attempt == 2:
                raise ToolError(
                    f"the model did not return a valid {kind} after {attempt} attempts: {exc}", _TRY_AGAIN
                ) from exc
            messages = [
                *messages,
                {"role": "assistant", "content": reply},
                {"role": "user", "content": f"That reply cannot be used: {exc}. Reply again, correctly."},
            ]
    raise AssertionError("unreachable")


def _parser(form: str, schema: JsonObject | None, header: list[str] | None = None) -> Callable[[str], Any]:
    if form == "json":
        return lambda reply: parse_json_reply(reply, schema)

    def table(reply: str) -> list[list[str]]:
        rows = parse_table(reply)
        if header is not None and not same_header(rows[0], header):
            raise InvalidOutput(f"the table must have exactly these columns: {render_table([header])}")
        return rows

    return table


async def _extract_parts(
    model: ToolModel, prompt: Callable[[str, tuple[int, int], str], str], parts: list[str], form: str, schema: Any
) -> Any:
    """Each part asked for on its own, then merged. A table's first part fixes the header the others must use."""
    total = len(parts)
    kind = "JSON value" if form == "json" else "table"
    gate = asyncio.Semaphore(CONCURRENT_CHUNKS)

    async def ask(number: int, parse: Callable[[str], Any], columns: str = "") -> Any:
        async with gate:
            messages = conversation(EXTRACT_SYSTEM, prompt(parts[number - 1], (number, total), columns))
            return await _ask_valid(model, messages, parse, kind)

    first = await ask(1, _parser(form, schema)) if form == "table" else None
    header = first[0] if first is not None else None
    parse = _parser(form, schema, header)
    columns = f"Use exactly these columns: {render_table([header])}" if header is not None else ""
    numbers = range(2 if first is not None else 1, total + 1)
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(ask(number, parse, columns)) for number in numbers]
    except ExceptionGroup as failures:  # the first failure is the one to report; the other calls were cancelled
        raise failures.exceptions[0] from None
    values = ([first] if first is not None else []) + [task.result() for task in tasks]
    if form == "table":
        return merge_tables(values)
    merged = merge_json(values)
    if schema is not None:
        error = best_match(Draft202012Validator(schema).iter_errors(merged))
        if error is not None:
            raise ToolError(
                f"each of the {total} parts matched the schema, but together they do not: {error.message}",
                "loosen the schema (e.g. maxItems), or give one part of the page as text",
            )
    return merged


def _extract_data(factory: ModelClientFactory, budget_tokens: int) -> Tool:
    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        form = arguments.get("format", "json")
        schema = arguments.get("schema")
        if schema is not None:
            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError as exc:
                raise ToolError(f"the schema is not a valid JSON schema: {exc.message}", "fix or drop it") from exc
        given = str(arguments.get("text") or "")
        content = None if given.strip() else await read_active_tab(ctx)
        text = given if content is None else content.text
        parts = [chunk.text.strip() for chunk in split_into_chunks(text, budget_tokens, overlap_tokens=0)]
        parts = [part for part in parts if part] or [text]

        def prompt(part: str, where: tuple[int, int] | None, columns: str = "") -> str:
            label = "text" if content is None else "page content"
            if where is not None:
                label += f", part {where[0]} of {where[1]}"
            source = (
                fence(part, label=label) if content is None else _page_block(content.title, content.url, part, label)
            )
            return _extract_prompt(arguments["instruction"], form, schema, source, where, columns)

        async with tool_model(factory, ctx, "extract_data") as model:
            if len(parts) == 1:
                messages = conversation(EXTRACT_SYSTEM, prompt(parts[0], None))
                value = await _ask_valid(
                    model, messages, _parser(form, schema), "JSON value" if form == "json" else "table"
                )
            else:
                value = await _extract_parts(model, prompt, parts, form, schema)
        payload = (
            json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) if form == "json" else render_table(value)
        )
        notes = [_safety_note(content)] if content is not None else []
        if len(parts) > 1:
            merged = "rows appended under one header" if form == "table" else "arrays joined, objects merged"
            notes.append(
                f"Read in {len(parts)} parts: the text ({len(text)} characters, about {estimate_tokens(text)} tokens) "
                f"was over one model call's budget of {budget_tokens} tokens, so each part was extracted and the "
                f"results merged in order ({merged})."
            )
        data = {"format": form, "value": value, "parts": len(parts), "attempts": model.calls - len(parts) + 1}
        return ToolOutput(
            text="\n".join([*(note for note in notes if note), fence(payload, label=f"extracted {form}")]),
            data={**data, **model.stats()},
        )

    return Tool(
        name="extract_data",
        description=(
            "Extract structured data from the active tab's content (or a given text) as JSON or a table. The "
            "result is validated: JSON parses and fits the schema if one is given; a table has the same columns "
            "on every row. A long text is read in parts and the results merged, so nothing is left out."
        ),
        parameters={
            "type": "object",
            "properties": {
                "instruction": {"type": "string", "minLength": 1, "description": "What to extract."},
                "format": {"type": "string", "enum": ["json", "table"], "default": "json"},
                "schema": {"type": "object", "description": "A JSON schema the JSON result must match."},
                "text": {"type": "string", "description": "Text to extract from instead of the active tab's."},
            },
            "required": ["instruction"],
            "additionalProperties": False,
        },
        handler=run,
        read_only=True,
        source=SOURCE_AGENT,
        timeout_s=EXTRACT_TIMEOUT_S,
    )


def content_tools(
    *,
    page_chars: int = 10_000,
    model_client_factory: ModelClientFactory,
    budget_tokens: int,
    shared: Sequence[Mapping[str, Any]] = (),
    files: FileReader | None = None,
) -> list[Tool]:
    """get_page_content, summarize_page and extract_data.

    `model_client_factory` returns a new LLMClient for the turn's model (the tool closes it when done);
    `budget_tokens` is how much page text one model call may carry; `page_chars` is the most get_page_content shows
    at once (a longer text comes in pages); `shared` are the tabs the user shared with the message (title, url,
    content), whose saved content get_page_content pages through too; `files` reads the conversation's files for it.
    """
    if budget_tokens < 1 or page_chars < 1:
        raise ValueError("the page size and the token budget must be positive")
    return [
        _get_page_content(page_chars, budget_tokens, _shared(shared), files),
        _summarize_page(model_client_factory, budget_tokens),
        _extract_data(model_client_factory, budget_tokens),
    ]
