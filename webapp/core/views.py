"""The dashboard: one HTML page (the Vite build) for every page path; the app routes on the client."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import ensure_csrf_cookie

_MISSING_BUILD = """<!doctype html><title>Hive</title>
<p>The dashboard has not been built yet. Run <code>make run</code> (it builds <code>frontend/</code>).</p>"""


@ensure_csrf_cookie
def dashboard(request: HttpRequest, path: str = "") -> HttpResponse:
    index = settings.FRONTEND_DIST / "index.html"
    try:
        body = index.read_text(encoding="utf-8")
    except FileNotFoundError:
        return HttpResponse(_MISSING_BUILD, status=503)
    return HttpResponse(body, content_type="text/html; charset=utf-8")
