"""What a conversation's file is called and what it is: decided by Hive from the bytes, never taken from the page
that downloaded it or the client that uploaded it.

A name becomes safe to store and to offer for download: no folders (only what follows the last slash), no control or
formatting characters (a right-to-left override makes "report‮fdp.exe" read as "reportexe.pdf"), none of the
characters or names Windows refuses (CON, NUL, COM1 …), no leading dot, and at most `MAX_NAME_BYTES` in UTF-8 with
its extension kept. The type is libmagic's reading of the file's first bytes.
"""

from __future__ import annotations

import unicodedata

import magic
from pathvalidate import sanitize_filename

MAX_NAME_BYTES = 150
MAX_EXTENSION_CHARS = 16
SNIFF_BYTES = 64 * 1024
UNKNOWN_TYPE = "application/octet-stream"
# Characters no file name needs: controls, formatting (bidirectional overrides, zero-width), separators of lines.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def _fit(text: str, limit: int) -> str:
    """The longest start of `text` that is at most `limit` bytes in UTF-8 (never half a character)."""
    return text.encode()[:limit].decode(errors="ignore")


def safe_name(raw: str, fallback: str = "download") -> str:
    base = raw.replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(
        ch for ch in unicodedata.normalize("NFC", base) if unicodedata.category(ch) not in _DROPPED_CATEGORIES
    )
    stem, dot, extension = base.strip(" .").rpartition(".")
    if not dot or not stem or len(extension) > MAX_EXTENSION_CHARS:
        stem, extension = base.strip(" ."), ""
    suffix = f".{extension}" if extension else ""
    cut = _fit(stem, MAX_NAME_BYTES - len(suffix.encode())).strip(" .")
    # pathvalidate drops what Windows refuses and renames what it reserves (CON → CON_), on the name as it will be.
    return str(sanitize_filename(f"{cut}{suffix}", platform="universal", replacement_text="_")).strip(" .") or fallback


def sniffed_type(head: bytes) -> str:
    """The media type a file's first `SNIFF_BYTES` say; an empty or unrecognised file is plain bytes."""
    if not head:
        return UNKNOWN_TYPE
    kind = str(magic.from_buffer(head[:SNIFF_BYTES], mime=True) or "")
    return kind if "/" in kind and kind != "application/x-empty" else UNKNOWN_TYPE
