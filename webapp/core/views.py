"""The dashboard: one HTML page (the Vite build) for every page path; the app routes on the client."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.defaults import page_not_found, server_error

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


def api_aware_404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Under /api/ every answer is JSON, also for a path that matches no endpoint (e.g. a negative id)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception or Http404())


def api_aware_500(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Something went wrong on the server; it has been logged."}, status=500)
    return server_error(request)
