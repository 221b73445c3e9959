"""Page content tools: get_page_content, summarize_page (chunked map-reduce) and extract_data (validated output),
against real Chromium and the scripted model; with hypothesis: page noise never reaches the extracted text, chunks
cover a text in order within the budget, and extracted data is valid or an error."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from agents.llm import LLMClient
from agents.tools import ToolContext, ToolOutput, ToolRegistry
from agents.tools.chunking import estimate_tokens, split_into_chunks
from agents.tools.content import content_tools
from agents.tools.structured import merge_json, parse_table
from browser_pool.extract import extract_content
from browser_pool.session import Session
from tests.agents.support import NoBrowser, RecordingSink, model
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory

# Browser tests share the module's Chromium, so every async test runs on the module's loop.
ASYNC = pytest.mark.asyncio(loop_scope="module")

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FENCED = re.compile(r'<untrusted_page_data source="([^"]*)">\n(.*?)\n</untrusted_page_data>', re.DOTALL)

STORY = [
    f"Paragraph {n}: the harbour of Saint-Malo reopened after weeks of repairs to the old sea wall, and the "
    f"fishermen who had landed their catch elsewhere came back to the quay on day {n}."
    for n in range(1, 41)
]
ARTICLE = f"""<!doctype html><html><head><title>Saint-Malo harbour reopens</title>
<script>var tracking = "SCRIPT-LEAK";</script><style>.x {{ content: "STYLE-LEAK" }}</style></head>
<body><nav><a href="/news">NAV-LEAK News</a> <a href="/sport">Sport</a></nav>
<main><article><h1>Saint-Malo harbour reopens</h1>{"".join(f"<p>{p}</p>" for p in STORY[:6])}
<div class="ad">AD-LEAK Buy the new phone today</div></article></main>
<footer><p>FOOTER-LEAK All rights reserved.</p></footer></body></html>"""
LONG = ARTICLE.replace("".join(f"<p>{p}</p>" for p in STORY[:6]), "".join(f"<p>{p}</p>" for p in STORY))
# About 106,000 characters of article, every paragraph different: more than summarize_page used to read.
HUGE = [f"{paragraph} It was entry {n} of the harbour master's log for that season." for n, paragraph in
        enumerate(STORY * 11, start=1)]  # fmt: skip
HUGE_PAGE = ARTICLE.replace("".join(f"<p>{p}</p>" for p in STORY[:6]), "".join(f"<p>{p}</p>" for p in HUGE))


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("content-pages")
    (root / "article.html").write_text(ARTICLE, encoding="utf-8")
    (root / "long.html").write_text(LONG, encoding="utf-8")
    (root / "huge.html").write_text(HUGE_PAGE, encoding="utf-8")
    with serve_directory(root) as base:
        yield base


@pytest.fixture(scope="module")
def server(scripted_llm_server: ScriptedLLM) -> ScriptedLLM:
    return scripted_llm_server


def tools(
    server: ScriptedLLM, *, budget_tokens: int = 4_000, page_chars: int = 10_000, shared: Any = ()
) -> ToolRegistry:
    def factory() -> LLMClient:
        return LLMClient(model(server.base_url), backoff_base_s=0.01)

    return ToolRegistry(
        content_tools(page_chars=page_chars, model_client_factory=factory, budget_tokens=budget_tokens, shared=shared)
    )


def context(tabs: Any = None, sink: RecordingSink | None = None) -> ToolContext:
    return ToolContext(tabs=tabs or NoBrowser(), sink=sink or RecordingSink(), uploads={}, action_timeout_ms=1_000)


def scripted(server: ScriptedLLM, handler: Any) -> None:
    server.reset()
    server.script(handler)


def prompt_of(request: dict[str, Any]) -> str:
    return "\n".join(str(message["content"]) for message in request["messages"])


def unfenced(text: str) -> str:
    (match,) = FENCED.finditer(text)
    return match.group(2)


# -- get_page_content ---------------------------------------------------------------------------------------------


@ASYNC
@pytest.mark.browser
async def test_get_page_content_gives_the_main_text_fenced_with_title_and_url(
    server: ScriptedLLM, session: Session, pages: str
) -> None:
    await session.active_page.goto(f"{pages}/article.html")

    output = await tools(server).run("get_page_content", {}, context(session))

    assert output.ok, output.error
    label, inside = next((m.group(1), m.group(2)) for m in FENCED.finditer(output.text))
    assert label == "page content"
    assert inside.startswith(f"Title: Saint-Malo harbour reopens\nURL: {pages}/article.html\n\n")
    for paragraph in STORY[:6]:
        assert paragraph in inside
    for leak in ("SCRIPT-LEAK", "STYLE-LEAK", "NAV-LEAK", "AD-LEAK", "FOOTER-LEAK"):
        assert leak not in output.text
    assert output.data["truncated"] is False


PAGE_NOTE = re.compile(r"This is page (\d+) of (\d+) \(characters (\d+)–(\d+) of (\d+)\)\.")


async def read_all_pages(registry: ToolRegistry, ctx: ToolContext, **arguments: Any) -> list[tuple[str, str]]:
    """Every page of a text, following each result's pointer to the next: (note, text inside the fence)."""
    pages, number = [], 1
    while True:
        output = await registry.run("get_page_content", {**arguments, "page": number}, ctx)
        assert output.ok, output.error
        inside = unfenced(output.text)
        pages.append((output.text[: output.text.index("<untrusted_page_data")], inside.split("\n\n", 1)[1]))
        if "It is the last page." in output.text:
            return pages
        number += 1
        expected = f"get_page_content with {'tab=1 and ' if 'tab' in arguments else ''}page={number}"
        assert expected in output.text


@ASYNC
@pytest.mark.browser
async def test_a_long_page_comes_in_pages_that_add_up_to_the_whole_text(
    server: ScriptedLLM, session: Session, pages: str
) -> None:
    await session.active_page.goto(f"{pages}/long.html")
    registry = tools(ScriptedLLM(), page_chars=600)

    read = await read_all_pages(registry, context(session))

    assert len(read) >= 8
    notes = [PAGE_NOTE.search(note) for note, _ in read]
    assert all(notes)
    spans = [tuple(map(int, match.groups())) for match in notes if match]
    length = spans[0][4]
    assert [span[:2] for span in spans] == [(n, len(read)) for n in range(1, len(read) + 1)]
    # Consecutive pages, no gap and no overlap, from the first character to the last.
    assert spans[0][2] == 1
    assert spans[-1][3] == length
    assert all(after[2] == before[3] + 1 for before, after in zip(spans, spans[1:], strict=False))
    assert all(len(text) <= 600 for _, text in read)
    joined = "\n\n".join(text for _, text in read)
    assert [joined.count(paragraph) for paragraph in STORY] == [1] * len(STORY)
    assert [joined.index(paragraph) for paragraph in STORY] == sorted(joined.index(p) for p in STORY)
    assert "NAV-LEAK" not in joined

    past = await registry.run("get_page_content", {"page": len(read) + 1}, context(session))

    assert not past.ok
    assert f"page {len(read) + 1} is past the end: the text has {len(read)} page(s)" in past.error
    assert f"from 1 to {len(read)}" in past.suggestion


@ASYNC
@pytest.mark.browser
async def test_a_100k_article_is_read_whole_in_pages_of_the_default_size(
    server: ScriptedLLM, session: Session, pages: str
) -> None:
    await session.active_page.goto(f"{pages}/huge.html")

    read = await read_all_pages(tools(ScriptedLLM()), context(session))

    assert len(read) == 11
    assert all(len(text) <= 10_000 for _, text in read)
    joined = "\n\n".join(text for _, text in read)
    assert [joined.count(paragraph) for paragraph in HUGE] == [1] * len(HUGE)
    assert "truncated" not in joined


@ASYNC
async def test_a_shared_tab_is_paged_from_its_saved_content(server: ScriptedLLM) -> None:
    saved = "\n\n".join(STORY)
    registry = tools(
        ScriptedLLM(), page_chars=700, shared=[{"title": "Saved", "url": "https://a.test/", "content": saved}]
    )

    read = await read_all_pages(registry, context(), tab=1)

    assert len(read) > 3
    assert "\n\n".join(text for _, text in read) == saved
    assert "as saved when shared" in read[0][0]
    missing = await registry.run("get_page_content", {"tab": 2}, context())
    assert not missing.ok
    assert "tab" in missing.error


@ASYNC
@pytest.mark.browser
async def test_a_restricted_page_gives_its_reason(server: ScriptedLLM, session: Session) -> None:
    await session.active_page.goto("about:blank")

    output = await tools(server).run("get_page_content", {}, context(session))

    assert not output.ok
    assert "browser page (about:)" in output.error
    assert "navigate to a web page" in output.suggestion


@ASYNC
async def test_without_a_browser_the_tool_says_so(server: ScriptedLLM) -> None:
    output = await tools(server).run("get_page_content", {}, context())

    assert not output.ok
    assert "the browser is not available" in output.error
    assert NoBrowser.REASON in output.error


# -- summarize_page -----------------------------------------------------------------------------------------------


def summarizer(request: dict[str, Any]) -> Reply:
    """Summarises a part as "S<n>" plus the part's first line, and a combination as "ALL:" + the parts."""
    prompt = prompt_of(request)
    part = re.search(r"This is part (\d+) of (\d+)", prompt)
    if part:
        return Reply(content=f"S{part.group(1)}")
    if "Combine them" in prompt:
        return Reply(content="ALL: " + " ".join(re.findall(r"\bS\d+\b", prompt)))
    return Reply(content="ONE-CALL SUMMARY")


@ASYNC
@pytest.mark.browser
async def test_a_page_over_the_budget_is_summarised_in_chunks_then_combined(
    server: ScriptedLLM, session: Session, pages: str
) -> None:
    await session.active_page.goto(f"{pages}/long.html")
    scripted(server, summarizer)
    sink = RecordingSink()

    output = await tools(server, budget_tokens=300).run(
        "summarize_page", {"focus": "the repairs"}, context(session, sink)
    )

    assert output.ok, output.error
    chunks = output.data["chunks"]
    assert chunks >= 3
    parts = [r for r in server.requests if "This is part" in prompt_of(r)]
    assert len(parts) == chunks
    assert len(server.requests) == chunks + 1
    combine = server.requests[-1]
    assert "Combine them" in prompt_of(combine)
    # Each part request carries one chunk within the budget; together they carry every paragraph, in order.
    seen: dict[int, str] = {}
    for request in parts:
        ((label, text),) = [(m.group(1), m.group(2)) for m in FENCED.finditer(prompt_of(request))]
        number, total = map(int, re.fullmatch(r"part (\d+) of (\d+)", label).groups())  # type: ignore[union-attr]
        assert total == chunks
        assert estimate_tokens(text) <= 300
        assert "Focus on: the repairs." in prompt_of(request)
        seen[number] = text
    joined = "\n".join(seen[n] for n in range(1, chunks + 1))
    positions = [joined.find(paragraph) for paragraph in STORY]
    assert all(p >= 0 for p in positions)
    assert positions == sorted(positions)
    assert "NAV-LEAK" not in joined
    # The combination saw every partial summary in order, and its answer is the tool's summary.
    assert re.findall(r"\bS\d+\b", prompt_of(combine)) == [f"S{n}" for n in range(1, chunks + 1)]
    assert f"Read in {chunks} chunks" in output.text
    assert unfenced(output.text) == f"Title: Saint-Malo harbour reopens\nURL: {pages}/long.html\n\nALL: " + " ".join(
        f"S{n}" for n in range(1, chunks + 1)
    )
    # Every model call is in the run's debug log, marked as the tool's.
    assert len(sink.model_calls) == chunks + 1
    assert {call["response"]["tool"] for call in sink.model_calls} == {"summarize_page"}
    assert output.data["model_calls"] == chunks + 1


@ASYNC
async def test_summaries_too_long_to_combine_at_once_are_combined_in_rounds(server: ScriptedLLM) -> None:
    scripted(server, lambda request: Reply(content="A long-winded summary that says a lot. " * 4))
    text = "\n\n".join(STORY[:12])

    output = await tools(server, budget_tokens=120).run("summarize_page", {"text": text}, context())

    assert output.ok
    combines = [r for r in server.requests if "Combine them" in prompt_of(r)]
    assert len(combines) > 1
    assert server.requests[-1] is combines[-1]
    assert all(estimate_tokens("".join(m.group(2) for m in FENCED.finditer(prompt_of(r)))) <= 150 for r in combines)
    assert output.data["model_calls"] == len(server.requests) == output.data["chunks"] + len(combines)


@ASYNC
async def test_text_within_the_budget_is_summarised_in_one_call(server: ScriptedLLM) -> None:
    scripted(server, summarizer)

    output = await tools(server).run("summarize_page", {"text": STORY[0]}, context())

    assert output.ok
    assert len(server.requests) == 1
    assert STORY[0] in unfenced(prompt_of(server.requests[0]))
    assert output.data["chunks"] == 1
    assert "Read in 1 chunk" in output.text
    assert unfenced(output.text) == "ONE-CALL SUMMARY"


@ASYNC
async def test_a_failing_model_is_an_error_with_a_suggestion(server: ScriptedLLM) -> None:
    scripted(server, lambda request: Reply(status=400, error="context length exceeded"))

    output = await tools(server).run("summarize_page", {"text": "Some text."}, context())

    assert not output.ok
    assert "the model could not answer" in output.error
    assert "context length exceeded" in output.error
    assert "get_page_content" in output.suggestion


# -- extract_data -------------------------------------------------------------------------------------------------

PRODUCTS = "Tea, 4.50 EUR. Coffee, 3.20 EUR. Cocoa, 2.80 EUR."
SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
        "required": ["name", "price"],
    },
}


def replies(*answers: str) -> Any:
    """A handler giving these answers in turn (the last one again when they run out)."""

    def handler(request: dict[str, Any]) -> Reply:
        assistant_turns = sum(1 for message in request["messages"] if message["role"] == "assistant")
        return Reply(content=answers[min(assistant_turns, len(answers) - 1)])

    return handler


@ASYNC
async def test_extract_data_returns_json_that_fits_the_schema(server: ScriptedLLM) -> None:
    answer = '```json\n[{"name": "Tea", "price": 4.5}, {"name": "Coffee", "price": 3.2}]\n```'
    scripted(server, replies(answer))
    arguments = {"instruction": "products and prices", "format": "json", "schema": SCHEMA, "text": PRODUCTS}

    output = await tools(server).run("extract_data", arguments, context())

    assert output.ok, output.error
    assert json.loads(unfenced(output.text)) == [{"name": "Tea", "price": 4.5}, {"name": "Coffee", "price": 3.2}]
    assert output.data["value"][0] == {"name": "Tea", "price": 4.5}
    assert output.data["attempts"] == 1
    (request,) = server.requests
    assert "Extract: products and prices" in prompt_of(request)
    assert '"required": ["name", "price"]' in prompt_of(request)
    assert PRODUCTS in unfenced(request["messages"][1]["content"])


@ASYNC
async def test_invalid_json_is_retried_once_with_the_error_then_fails(server: ScriptedLLM) -> None:
    scripted(server, replies("Here are the products: Tea and Coffee."))

    output = await tools(server).run("extract_data", {"instruction": "products", "text": PRODUCTS}, context())

    assert not output.ok
    assert "did not return a valid JSON value after 2 attempts" in output.error
    assert "the reply is not valid JSON" in output.error
    assert "drop the schema" in output.suggestion
    first, second = server.requests
    assert second["messages"][-2] == {"role": "assistant", "content": "Here are the products: Tea and Coffee."}
    assert "That reply cannot be used: the reply is not valid JSON" in second["messages"][-1]["content"]


@ASYNC
async def test_json_that_misses_the_schema_is_corrected_on_the_retry(server: ScriptedLLM) -> None:
    scripted(server, replies('[{"name": "Tea"}]', '[{"name": "Tea", "price": 4.5}]'))
    arguments = {"instruction": "products", "schema": SCHEMA, "text": PRODUCTS}

    output = await tools(server).run("extract_data", arguments, context())

    assert output.ok
    assert output.data["attempts"] == 2
    assert "does not match the schema at 0: 'price' is a required property" in prompt_of(server.requests[1])


@ASYNC
async def test_an_invalid_schema_is_refused_before_asking_the_model(server: ScriptedLLM) -> None:
    scripted(server, replies("[]"))
    arguments = {"instruction": "x", "schema": {"type": "no-such-type"}, "text": PRODUCTS}

    output = await tools(server).run("extract_data", arguments, context())

    assert not output.ok
    assert "not a valid JSON schema" in output.error
    assert server.requests == []


@ASYNC
async def test_a_ragged_table_is_retried_and_a_valid_one_returned_as_markdown(server: ScriptedLLM) -> None:
    ragged = "| Name | Price | Unit |\n| --- | --- | --- |\n| Tea | 4.50 | EUR |\n| Coffee | 3.20 |"
    good = "Here you go:\n\n| Name | Price |\n|:--|--:|\n| Tea | 4.50 |\n| Coffee | 3.20 |\n\nAnything else?"
    scripted(server, replies(ragged, good))

    output = await tools(server).run(
        "extract_data", {"instruction": "prices", "format": "table", "text": PRODUCTS}, context()
    )

    assert output.ok
    assert "row 4 of the Markdown table has 2 cells, the header has 3" in prompt_of(server.requests[1])
    assert unfenced(output.text) == "| Name | Price |\n| --- | --- |\n| Tea | 4.50 |\n| Coffee | 3.20 |"
    assert output.data["value"] == [["Name", "Price"], ["Tea", "4.50"], ["Coffee", "3.20"]]


CATALOGUE = [f"Item {n}: a tin of tea number {n} from the harbour shop costs {n}.50 EUR." for n in range(1, 61)]


def part_reader(form: str) -> Any:
    """Answers from the part it is given: every "Item n ... costs p" in it, as JSON objects or table rows."""

    def handler(request: dict[str, Any]) -> Reply:
        part = unfenced(request["messages"][1]["content"])
        found = re.findall(r"Item (\d+): .*? costs ([\d.]+) EUR", part)
        if form == "json":
            return Reply(content=json.dumps([{"item": int(n), "price": float(p)} for n, p in found]))
        rows = "".join(f"| {n} | {p} |\n" for n, p in found)
        return Reply(content=f"| Item | Price |\n| --- | --- |\n{rows}")

    return handler


@ASYNC
async def test_extract_data_reads_a_long_text_in_parts_and_joins_the_arrays(server: ScriptedLLM) -> None:
    scripted(server, part_reader("json"))
    text = "\n\n".join(CATALOGUE)
    arguments = {"instruction": "every item and its price", "schema": {"type": "array"}, "text": text}

    output = await tools(server, budget_tokens=300).run("extract_data", arguments, context())

    assert output.ok, output.error
    parts = output.data["parts"]
    assert parts >= 4
    assert len(server.requests) == parts
    assert all(
        f"This is part {n} of {parts}" in prompt_of(r)
        for n, r in enumerate(
            sorted(
                server.requests,
                key=lambda r: int(re.search(r"This is part (\d+)", prompt_of(r)).group(1)),  # type: ignore[union-attr]
            ),
            start=1,
        )
    )
    assert [entry["item"] for entry in output.data["value"]] == list(range(1, 61))
    assert f"Read in {parts} parts" in output.text


@ASYNC
async def test_extract_data_appends_the_parts_rows_under_one_header(server: ScriptedLLM) -> None:
    scripted(server, part_reader("table"))
    text = "\n\n".join(CATALOGUE)

    output = await tools(server, budget_tokens=300).run(
        "extract_data", {"instruction": "items and prices", "format": "table", "text": text}, context()
    )

    assert output.ok, output.error
    rows = output.data["value"]
    assert rows[0] == ["Item", "Price"]
    assert [row[0] for row in rows[1:]] == [str(n) for n in range(1, 61)]
    assert unfenced(output.text).count("| Item | Price |") == 1
    # The parts after the first are told the first part's columns, and keep to them.
    later = [r for r in server.requests if "This is part 1 of" not in prompt_of(r)]
    assert len(later) == output.data["parts"] - 1
    assert all("Use exactly these columns: | Item | Price |" in prompt_of(r) for r in later)
    assert len(server.requests) == output.data["parts"]
    assert "rows appended under one header" in output.text


@ASYNC
async def test_a_part_with_other_columns_is_asked_again_with_the_first_parts_header(server: ScriptedLLM) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        prompt = prompt_of(request)
        if "This is part 1 of" in prompt:
            return Reply(content="| Item | Price |\n| --- | --- |\n| 1 | 1.50 |")
        if request["messages"][-1]["content"].startswith("That reply cannot be used"):
            return Reply(content="| Item | Price |\n| --- | --- |\n| 2 | 2.50 |")
        return Reply(content="| Product | Cost | Unit |\n| --- | --- | --- |\n| 2 | 2.50 | EUR |")

    scripted(server, handler)
    text = "\n\n".join(CATALOGUE[:12])

    output = await tools(server, budget_tokens=150).run(
        "extract_data", {"instruction": "items and prices", "format": "table", "text": text}, context()
    )

    assert output.ok, output.error
    assert output.data["parts"] >= 2
    assert output.data["value"][0] == ["Item", "Price"]
    assert all(row == ["2", "2.50"] for row in output.data["value"][2:])
    retries = [r for r in server.requests if r["messages"][-1]["content"].startswith("That reply cannot be used")]
    assert retries
    assert all("the table must have exactly these columns: | Item | Price |" in prompt_of(r) for r in retries)


def test_json_results_of_parts_merge_in_reading_order() -> None:
    assert merge_json([[1, 2], None, [3]]) == [1, 2, 3]
    assert merge_json([{"title": "A", "tags": ["x"]}, {"title": None, "tags": ["y"], "author": "B"}]) == {
        "title": "A",
        "tags": ["x", "y"],
        "author": "B",
    }
    assert merge_json([None, None]) is None


@ASYNC
@pytest.mark.browser
async def test_summarize_page_reads_the_whole_of_a_100k_article(
    server: ScriptedLLM, session: Session, pages: str
) -> None:
    await session.active_page.goto(f"{pages}/huge.html")
    scripted(server, summarizer)

    output = await tools(server, budget_tokens=8_000).run("summarize_page", {}, context(session))

    assert output.ok, output.error
    sent = "\n".join(unfenced(prompt_of(r)) for r in server.requests if "This is part" in prompt_of(r))
    assert HUGE[-1] in sent
    assert "safety bound" not in output.text


@pytest.mark.parametrize(
    ("reply", "rows"),
    [
        ('name,price\nTea,4.50\n"Cocoa, dark",2.80', [["name", "price"], ["Tea", "4.50"], ["Cocoa, dark", "2.80"]]),
        ("a\tb\n1\t2", [["a", "b"], ["1", "2"]]),
        ("```markdown\n| a | b \\| c |\n|---|---|\n| 1 | 2 |\n```", [["a", "b | c"], ["1", "2"]]),
        ("a | b\n--- | ---\n1 | 2", [["a", "b"], ["1", "2"]]),
        ("| only |\n| --- |\n| one |", [["only"], ["one"]]),
    ],
)
def test_tables_that_parse(reply: str, rows: list[list[str]]) -> None:
    assert parse_table(reply) == rows


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("| a | b |\n| 1 | 2 |", "second row must separate the header"),
        ("a,b\n1,2,3", "row 2 of the CSV table has 3 cells, the header has 2"),
        ("I could not find any prices on this page", "not a table"),
        ("| | |\n|---|---|\n| 1 | 2 |", "header row is empty"),
        ("", "empty"),
    ],
)
def test_tables_that_do_not(reply: str, error: str) -> None:
    with pytest.raises(ValueError, match=re.escape(error)):
        parse_table(reply)


# -- properties that hold for any page or text (hypothesis) -------------------------------------------------------

prose_words = st.text(st.sampled_from("abcdefghij"), min_size=1, max_size=8)
noise_kinds = {
    "script": lambda marker: f"<script>var x = '{marker}';</script>",
    "style": lambda marker: f"<style>.x {{ content: '{marker}' }}</style>",
    "nav": lambda marker: f"<nav><a href='/a'>{marker}</a> <a href='/b'>Home</a></nav>",
    "footer": lambda marker: f"<footer><p>{marker} all rights reserved</p></footer>",
    "ad": lambda marker: f"<div class='ad'>{marker} buy now</div>",
    "advertisement": lambda marker: f"<div class='card advertisement'><span>{marker}</span> special offer</div>",
}


@st.composite
def noisy_pages(draw: st.DrawFn) -> tuple[str, list[str]]:
    """An article of at least 300 characters with noise around and inside it: before, at its start, between its
    paragraphs, at its end, after it. (Each noise element stays a small share of the page: the extractor keeps an
    element that holds 40% of a page's text, as it is more likely the article in an unluckily named wrapper.)"""
    paragraphs = draw(st.lists(st.lists(prose_words, min_size=1, max_size=60).map(" ".join), min_size=1, max_size=8))
    if sum(len(p) for p in paragraphs) < 300:
        paragraphs.append(" ".join(["harbour wall repairs"] * 20))
    noise = draw(st.lists(st.tuples(st.sampled_from(sorted(noise_kinds)), st.integers(0, 4)), min_size=1, max_size=6))
    slots: list[list[str]] = [[] for _ in range(5)]
    markers = []
    for number, (kind, slot) in enumerate(noise):
        marker = f"NOISE{number}{kind.upper()}"
        markers.append(marker)
        slots[slot].append(noise_kinds[kind](marker))
    body = [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    body.insert(draw(st.integers(0, len(body))), "".join(slots[2]))
    wrapper = draw(st.sampled_from(["article", "main", "section", "div"]))
    inner = "".join(slots[1]) + "".join(body) + "".join(slots[3])
    page = (
        f"<html><head><title>T</title>{''.join(slots[0])}</head><body>{''.join(slots[0])}"
        f"<{wrapper}>{inner}</{wrapper}>{''.join(slots[4])}</body></html>"
    )
    return page, markers


@settings(max_examples=80, deadline=None)
@given(page=noisy_pages())
def test_noise_never_reaches_the_extracted_content(page: tuple[str, list[str]]) -> None:
    markup, markers = page

    result = extract_content(markup, "https://example.com/story")

    assert result.ok
    for marker in markers:
        assert marker not in result.text
    for furniture in ("buy now", "special offer", "all rights reserved", "Home"):
        assert furniture not in result.text


def chunk_texts(max_pieces: int) -> st.SearchStrategy[str]:
    """Latin words, CJK runs without spaces, and every kind of boundary the chunker cuts at."""
    piece = st.one_of(
        st.text(st.sampled_from("abcdefghij"), min_size=1, max_size=30),
        st.text(st.sampled_from("港口渔民修复海堤"), min_size=1, max_size=40),
        st.sampled_from([" ", "  ", "\n", "\n\n", ". ", "。", "！", ", ", "，", "\t"]),
    )
    return st.lists(piece, max_size=max_pieces).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=chunk_texts(120), budget=st.integers(1, 120))
def test_chunks_fit_the_budget_and_cover_the_text_in_order(text: str, budget: int) -> None:
    chunks = split_into_chunks(text, budget)

    if estimate_tokens(text) > budget:
        assert len(chunks) >= 2
    else:
        assert [chunk.text for chunk in chunks] == [text]
    assert all(chunk.tokens == estimate_tokens(chunk.text) <= budget for chunk in chunks)
    assert all(chunk.text == text[chunk.start : chunk.end] for chunk in chunks)
    assert chunks[0].start == 0
    assert chunks[-1].end == len(text)
    for before, after in zip(chunks, chunks[1:], strict=False):
        assert before.start < after.start <= before.end < after.end  # in order, overlapping or touching: no gap


@ASYNC
@FAST
@given(text=chunk_texts(40).filter(str.strip), budget=st.integers(16, 80))
async def test_summarize_splits_long_content_before_processing(server: ScriptedLLM, text: str, budget: int) -> None:
    scripted(server, summarizer)

    output = await tools(server, budget_tokens=budget).run("summarize_page", {"text": text}, context())

    assert output.ok
    expected = [chunk.text.strip() for chunk in split_into_chunks(text, budget) if chunk.text.strip()]
    if len(expected) == 1:
        assert len(server.requests) == 1
        return
    *parts, combine = server.requests
    sent = {}
    for request in parts:
        ((label, chunk),) = [(m.group(1), m.group(2)) for m in FENCED.finditer(prompt_of(request))]
        sent[label] = chunk
        assert estimate_tokens(chunk) <= budget
    assert sent == {f"part {n} of {len(expected)}": chunk for n, chunk in enumerate(expected, start=1)}
    assert "Combine them" in prompt_of(combine)
    assert output.data["chunks"] == len(expected)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)
cells = st.text(st.sampled_from("abcxyz 0123456789价格"), min_size=1, max_size=8).map(str.strip).filter(bool)


@st.composite
def tables(draw: st.DrawFn) -> str:
    columns = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(cells, min_size=columns, max_size=columns), min_size=1, max_size=5))
    if draw(st.booleans()):  # ragged
        row = draw(st.integers(0, len(rows) - 1))
        rows[row] = rows[row] + ["extra"] if draw(st.booleans()) or len(rows[row]) == 1 else rows[row][:-1]
    if draw(st.booleans()):
        lines = ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join([lines[0], "| " + " | ".join(["---"] * columns) + " |", *lines[1:]])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


model_replies = st.one_of(
    json_values.map(json.dumps),
    json_values.map(lambda value: f"```json\n{json.dumps(value)}\n```"),
    tables(),
    st.text(max_size=60),
)


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def strictly_json(text: str) -> bool:
    try:
        json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return False
    return True


def table_is_consistent(markdown: str) -> bool:
    lines = markdown.split("\n")
    counts = {len(re.split(r"(?<!\\)\|", line)) for line in lines}
    return (
        len(lines) >= 2
        and all(line.startswith("| ") and line.endswith(" |") for line in lines)
        and len(counts) == 1
        and all(re.fullmatch(r":?-+:?", cell.strip()) for cell in lines[1].strip("|").split("|"))
    )


@FAST
@given(
    first=model_replies,
    second=model_replies,
    form=st.sampled_from(["json", "table"]),
    schema=st.sampled_from([None, {"type": "array"}, {"type": "object"}]),
)
@ASYNC
async def test_extracted_data_is_valid_json_or_a_table_or_an_error(
    server: ScriptedLLM, first: str, second: str, form: str, schema: dict[str, Any] | None
) -> None:
    scripted(server, replies(first, second))
    arguments: dict[str, Any] = {"instruction": "the data", "format": form, "text": PRODUCTS}
    if schema is not None and form == "json":
        arguments["schema"] = schema

    output: ToolOutput = await tools(server).run("extract_data", arguments, context())

    event(f"{form}: {'valid' if output.ok else 'error'} after {len(server.requests)} replies")
    if output.ok:
        payload = unfenced(output.text)
        if form == "json":
            assert json.loads(payload) == output.data["value"]
            if schema is not None:
                assert Draft202012Validator(schema).is_valid(output.data["value"])
        else:
            assert table_is_consistent(payload), payload
    else:
        assert "after 2 attempts" in output.error
        assert output.suggestion
        assert len(server.requests) == 2
    # A reply that is already good is taken as it is, at once.
    if (
        form == "json"
        and strictly_json(first)
        and (schema is None or Draft202012Validator(schema).is_valid(json.loads(first)))
    ):
        assert output.ok
        assert len(server.requests) == 1
        assert output.data["value"] == json.loads(first)


def test_the_tools_only_read_and_may_take_several_model_calls_long() -> None:
    content = {tool.name: tool for tool in content_tools(model_client_factory=lambda: None, budget_tokens=100)}  # type: ignore[arg-type,return-value]

    assert list(content) == ["get_page_content", "summarize_page", "extract_data"]
    assert all(tool.read_only for tool in content.values())
    assert (content["summarize_page"].timeout_s or 0) > 60  # beyond the turn's 30 s per tool
    assert (content["extract_data"].timeout_s or 0) > 60
