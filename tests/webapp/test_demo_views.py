"""The demo sites under /demo/: served without a login, with the right types, and nothing outside their folder."""

from __future__ import annotations

import pytest
from django.test import Client

PAGES = [
    ("/demo/", "text/html; charset=utf-8", b"Hive demo sites"),
    ("/demo/flights/", "text/html; charset=utf-8", b'<script src="flights.js">'),
    ("/demo/flights/flights.js", "text/javascript; charset=utf-8", b"document.modelContext"),
    ("/demo/flights/flights.css", "text/css; charset=utf-8", b".flight"),
    ("/demo/shop/", "text/html; charset=utf-8", b'id="product-list"'),
    ("/demo/shop/shop.js", "text/javascript; charset=utf-8", b"localStorage"),
    ("/demo/article/", "text/html; charset=utf-8", b"The slow return of the sleeper train"),
    ("/demo/demo.css", "text/css; charset=utf-8", b":root"),
]


@pytest.mark.parametrize(("url", "content_type", "snippet"), PAGES)
def test_demo_files_are_served_to_anyone(url: str, content_type: str, snippet: bytes) -> None:
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert snippet in response.content


def test_the_shop_has_no_webmcp_of_its_own() -> None:
    page = Client().get("/demo/shop/").content
    script = Client().get("/demo/shop/shop.js").content
    assert b"modelContext" not in page + script
    assert b"toolname" not in page


def test_a_folder_without_its_slash_redirects() -> None:
    response = Client().get("/demo/flights")
    assert response.status_code == 302
    assert response["Location"] == "/demo/flights/"


@pytest.mark.parametrize(
    "url",
    [
        "/demo/../settings.py",
        "/demo/../../webapp/settings/base.py",
        "/demo/%2e%2e/views.py",
        "/demo/%2E%2E/views.py",
        "/demo/%2e%2e%2fviews.py",
        "/demo/flights/..%2f..%2fviews.py",
        "/demo/..%5cviews.py",
        "/demo/%252e%252e/views.py",
        "/demo/./flights/index.html",
        "/demo//etc/passwd",
        "/demo/flights/%00index.html",
        "/demo/.hidden",
        "/demo/nope.html",
        "/demo/shop/missing/",
    ],
)
def test_nothing_outside_the_demo_folder_is_reachable(url: str) -> None:
    assert Client().get(url).status_code == 404


def test_only_reads_are_allowed() -> None:
    assert Client().post("/demo/flights/").status_code == 405
    assert Client().head("/demo/flights/").status_code == 200
