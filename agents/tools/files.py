"""A conversation's files as text for the agent: a download or an upload, read by id with `get_page_content(file_id=…)`
(agents.tools.content), one page at a time like a page's text.

PDF text comes from pypdf, page by page; CSV, JSON, XML and other text are decoded (UTF-8, else what
charset-normalizer finds). Other files (images, archives, office documents) are refused with what they are. What a file
holds is untrusted: the content tool fences it like a page's text. A hostile file cannot take the worker with it: the
text is read in a thread, at most `MAX_TEXT_CHARS` characters of it (and `MAX_PDF_PAGES` pages of a PDF), and a turn
keeps the few texts it read last so paging through a long file parses it once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from charset_normalizer import from_bytes
from pypdf import PdfReader
from pypdf.errors import PyPdfError

from agents.tools.base import ToolError

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 2_000_000
MAX_PDF_PAGES = 500
TEXTS_KEPT = 4
TEXT_TYPES = ("application/json", "application/xml", "application/csv", "application/x-ndjson", "application/yaml")


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A file of the conversation as the worker finds it by id."""

    id: str
    name: str
    content_type: str
    size: int
    path: Path


# The worker's look-up of a file of the conversation by id (None: no such file); asked at the time of the call, so a
# file downloaded earlier in the same turn is found.
FindFile = Callable[[str], Awaitable[StoredFile | None]]


def readable(content_type: str) -> bool:
    """Whether `get_page_content` reads files of this type: PDF and text."""
    return content_type == "application/pdf" or content_type.startswith("text/") or content_type in TEXT_TYPES


@dataclass(frozen=True, slots=True)
class FileText:
    text: str
    note: str  # "" or what was left out and why


def _pdf_text(path: Path) -> FileText:
    try:
        reader = PdfReader(path)
        pages = len(reader.pages)
        parts: list[str] = []
        length = 0
        for page in reader.pages[:MAX_PDF_PAGES]:
            text = (page.extract_text() or "").strip()
            parts.append(text)
            length += len(text)
            if length >= MAX_TEXT_CHARS:
                break
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise ToolError(f"the PDF could not be read ({exc})", "tell the user the file seems damaged") from exc
    text = "\n\n".join(part for part in parts if part)
    if not text:
        raise ToolError("the PDF has no text to read (it may be scanned pictures)", "tell the user what the file is")
    note = f"Only the first {len(parts)} of its {pages} PDF pages were read." if len(parts) < pages else ""
    return FileText(text[:MAX_TEXT_CHARS], note)


def _decoded(path: Path) -> FileText:
    with path.open("rb") as handle:
        raw = handle.read(MAX_TEXT_CHARS * 4 + 1)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        best = from_bytes(raw).best()
        text = str(best) if best is not None else raw.decode("utf-8", errors="replace")
    if len(text) > MAX_TEXT_CHARS or len(raw) > MAX_TEXT_CHARS * 4:
        return FileText(text[:MAX_TEXT_CHARS], f"Only the first {MAX_TEXT_CHARS} characters of the file were read.")
    return FileText(text, "")


class FileReader:
    """Reads the conversation's files for one turn, keeping the last few texts it read."""

    def __init__(self, find: FindFile) -> None:
        self._find = find
        self._texts: OrderedDict[str, tuple[StoredFile, FileText]] = OrderedDict()

    async def read(self, file_id: str) -> tuple[StoredFile, FileText]:
        kept = self._texts.get(file_id)
        if kept is not None:
            self._texts.move_to_end(file_id)
            return kept
        stored = await self._find(file_id)
        if stored is None:
            raise ToolError(
                f"this conversation has no file {file_id!r}",
                "use the file id a step's downloads named, or the id of a file the user uploaded",
            )
        if not readable(stored.content_type):
            raise ToolError(
                f"{stored.name} is {stored.content_type}: only PDF and text files can be read",
                "tell the user the file is kept in the conversation, where they can download it",
            )
        parse = _pdf_text if stored.content_type == "application/pdf" else _decoded
        text = await asyncio.to_thread(parse, stored.path)
        self._texts[file_id] = (stored, text)
        while len(self._texts) > TEXTS_KEPT:
            self._texts.popitem(last=False)
        return stored, text
