"""The API's browsable docs (Swagger UI, Redoc) load everything from Hive itself: they work offline and under the
Content-Security-Policy (no inline script, nothing from a CDN)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_use_only_same_origin_assets(path: str) -> None:
    client = Client()
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, "the page loads its UI from somewhere"
    assert all(not source.startswith(("http://", "https://", "//")) for source in sources), sources
    assert not re.search(r"<script>(?!\s*</script>)", html), "no inline script (the CSP forbids it)"
    for source in sources:
        if source.startswith("/static/") or source.startswith("/api/"):
            assert client.get(source).status_code == 200, source
