"""The conversation's files read by get_page_content(file_id=…): a long CSV in pages that add up to the whole file,
a PDF's text, and a clear tool error for a file that is not text, one that is not there, or a damaged PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.llm import LLMClient
from agents.tools import ToolContext, ToolRegistry
from agents.tools.content import content_tools
from agents.tools.files import FileReader, StoredFile
from tests.agents.support import NoBrowser, RecordingSink, model
from tests.support.downloads import PDF_TEXT, tiny_pdf

FENCED = re.compile(r'<untrusted_page_data source="([^"]*)">\n(.*?)\n</untrusted_page_data>', re.DOTALL)
ROWS = ["city,trains,passengers"] + [f"Town {n},{n % 17},{n * 311}" for n in range(1, 400)]


def _registry(folder: Path, files: dict[str, tuple[str, str, bytes]], page_chars: int = 2_000) -> ToolRegistry:
    stored: dict[str, StoredFile] = {}
    for file_id, (name, content_type, body) in files.items():
        path = folder / name
        path.write_bytes(body)
        stored[file_id] = StoredFile(file_id, name, content_type, len(body), path)

    async def find(file_id: str) -> StoredFile | None:
        return stored.get(file_id)

    def no_model() -> LLMClient:
        return LLMClient(model("http://127.0.0.1:9/v1"))

    tools = content_tools(
        page_chars=page_chars, model_client_factory=no_model, budget_tokens=4_000, files=FileReader(find)
    )
    return ToolRegistry(tools)


def _context() -> ToolContext:
    return ToolContext(tabs=NoBrowser(), sink=RecordingSink(), uploads={}, action_timeout_ms=1_000)


@pytest.mark.asyncio
async def test_a_long_csv_comes_in_pages_that_add_up_to_the_whole_file(tmp_path: Path) -> None:
    body = "\n".join(ROWS)
    registry = _registry(tmp_path, {"7": ("trains.csv", "text/csv", body.encode())})

    texts: list[str] = []
    page = 1
    while True:
        output = await registry.run("get_page_content", {"file_id": "7", "page": page}, _context())
        assert output.ok, output.error
        (match,) = FENCED.finditer(output.text)
        assert match.group(1) == "file content"
        assert match.group(2).startswith("Title: trains.csv\nURL: file 7 (text/csv)\n\n")
        texts.append(match.group(2).split("\n\n", 1)[1])
        if "It is the last page." in output.text:
            break
        page += 1
        assert f'get_page_content with file_id="7" and page={page}' in output.text

    assert page > 3
    joined = "\n".join(texts)
    for row in (ROWS[1], ROWS[200], ROWS[-1]):
        assert row in joined
    assert re.sub(r"\s+", " ", joined).strip() == re.sub(r"\s+", " ", body).strip()


@pytest.mark.asyncio
async def test_a_pdf_is_read_as_its_text(tmp_path: Path) -> None:
    registry = _registry(tmp_path, {"3": ("report.pdf", "application/pdf", tiny_pdf(PDF_TEXT))})

    output = await registry.run("get_page_content", {"file_id": "3"}, _context())

    assert output.ok, output.error
    assert PDF_TEXT in output.text
    assert "report.pdf" in output.text


@pytest.mark.asyncio
async def test_files_that_cannot_be_read_say_why(tmp_path: Path) -> None:
    registry = _registry(
        tmp_path,
        {
            "1": ("photo.png", "image/png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64),
            "2": ("broken.pdf", "application/pdf", b"%PDF-1.4\nnot really a PDF"),
        },
    )

    picture = await registry.run("get_page_content", {"file_id": "1"}, _context())
    missing = await registry.run("get_page_content", {"file_id": "99"}, _context())
    broken = await registry.run("get_page_content", {"file_id": "2"}, _context())

    assert not picture.ok
    assert "image/png: only PDF and text files can be read" in picture.error
    assert not missing.ok
    assert "no file '99'" in missing.error
    assert not broken.ok
    assert "PDF" in broken.error
