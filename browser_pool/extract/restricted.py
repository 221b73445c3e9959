"""Pages whose content cannot or must not be read: browser internals, local files, downloads, PDFs."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from lxml.html import HtmlElement

_SCHEME_REASONS = {
    "about": "This is a browser page (about:), which has no web content to read.",
    "chrome": "This is a Chromium internal page (chrome:), which extensions and agents may not read.",
    "chrome-extension": "This page belongs to a browser extension (chrome-extension:), which may not be read.",
    "chrome-error": "The page failed to load; the tab shows the browser's error page.",
    "chrome-search": "This is a Chromium internal page (chrome-search:), which may not be read.",
    "chrome-untrusted": "This is a Chromium internal page (chrome-untrusted:), which may not be read.",
    "devtools": "This is the browser's developer tools (devtools:), which may not be read.",
    "view-source": "This is a page's source view (view-source:); open the page itself to read it.",
    "file": "This is a local file (file:), which the hosted browser may not read.",
    "filesystem": "This is a browser file system page (filesystem:), which may not be read.",
}
_DOWNLOAD_PAGE = "This is the browser's downloads page, which has no web content to read."

# Documents Chromium shows in a viewer or hands to the download manager instead of rendering as HTML.
_DOCUMENT_EXTENSIONS = {
    ".pdf": "PDF document",
    ".doc": "Word document", ".docx": "Word document", ".odt": "text document", ".rtf": "RTF document",
    ".xls": "spreadsheet", ".xlsx": "spreadsheet", ".ods": "spreadsheet",
    ".ppt": "presentation", ".pptx": "presentation", ".odp": "presentation",
    ".zip": "archive", ".gz": "archive", ".tgz": "archive", ".bz2": "archive", ".xz": "archive",
    ".7z": "archive", ".rar": "archive", ".tar": "archive",
    ".exe": "program", ".msi": "installer", ".dmg": "disk image", ".iso": "disk image", ".apk": "app package",
    ".deb": "package", ".rpm": "package",
    ".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".webp": "image", ".avif": "image",
    ".bmp": "image", ".ico": "image",
    ".mp3": "audio file", ".wav": "audio file", ".ogg": "audio file", ".flac": "audio file", ".m4a": "audio file",
    ".mp4": "video", ".webm": "video", ".mov": "video", ".avi": "video", ".mkv": "video",
}  # fmt: skip
# The MIME types Chromium's built-in viewers embed for such documents.
_EMBED_TYPES = {
    "application/pdf": "PDF document",
    "application/x-google-chrome-pdf": "PDF document",
}


def restricted_url_reason(url: str) -> str:
    """Why a page at `url` cannot be read at all, or "" when it may be."""
    cleaned = url.strip()
    if not cleaned:
        return ""
    scheme = urlsplit(cleaned).scheme.lower() if ":" in cleaned else ""
    if scheme in _SCHEME_REASONS:
        if scheme == "chrome" and cleaned.lower().startswith("chrome://downloads"):
            return _DOWNLOAD_PAGE
        return _SCHEME_REASONS[scheme]
    return ""


def document_kind(url: str, root: HtmlElement | None) -> str:
    """What the tab shows when it is not an HTML page ("PDF document", "spreadsheet", ...), else ""."""
    if root is not None:
        for embed in root.iter("embed", "object"):
            kind = _EMBED_TYPES.get((embed.get("type") or "").strip().lower())
            if kind:
                return kind
    path = unquote(urlsplit(url.strip()).path).lower()
    for extension, kind in _DOCUMENT_EXTENSIONS.items():
        if path.endswith(extension):
            return kind
    return ""


def document_reason(kind: str) -> str:
    article = "an" if kind[:1] in "aeiou" else "a"
    return f"This tab shows {article} {kind}, not a web page, and it has no readable text."
