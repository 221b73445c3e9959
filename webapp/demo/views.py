"""The demo sites under /demo/, served by Hive itself so they share its origin (WebMCP needs a secure context,
and localhost is one). Plain files from ``sites/``; no login; nothing outside that folder is reachable."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.views.decorators.http import require_safe

SITES = Path(__file__).resolve().parent / "sites"

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}


def _resolve(path: str) -> Path | None:
    """The file or folder ``path`` names inside SITES, or None for anything that could step outside it."""
    parts = path.split("/")
    if any(part in {".", ".."} or part.startswith(".") or "\\" in part or "\x00" in part for part in parts):
        return None
    target = SITES.joinpath(*[part for part in parts if part]).resolve()
    return target if target.is_relative_to(SITES) and target.exists() else None


@require_safe
def demo_file(request: HttpRequest, path: str = "") -> HttpResponse:
    target = _resolve(path)
    if target is None:
        raise Http404("No such demo file.")
    if target.is_dir():
        if path and not path.endswith("/"):  # relative links in the page need the trailing slash
            return HttpResponseRedirect(request.path + "/")
        target = target / "index.html"
        if not target.is_file():
            raise Http404("No such demo file.")
    content_type = _TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    # The files are small; a plain response also avoids Django's warning about sync iterators under ASGI.
    response = HttpResponse(target.read_bytes(), content_type=content_type)
    response["Cache-Control"] = "no-cache"
    return response
