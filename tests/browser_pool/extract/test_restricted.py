"""Pages the extractor must not or cannot read: it says why instead of returning text."""

from __future__ import annotations

import pytest

from browser_pool.extract import extract_content, restricted_url_reason

SOME_HTML = (
    "<html><head><title>Settings</title></head><body><p>"
    + "Internal browser settings text. " * 20
    + "</p></body></html>"
)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("about:blank", "about:"),
        ("about:version", "about:"),
        ("chrome://settings/", "chrome:"),
        ("chrome://downloads/", "downloads"),
        ("chrome-extension://abcdefghijklmnop/popup.html", "extension"),
        ("devtools://devtools/bundled/inspector.html", "developer tools"),
        ("view-source:https://example.com/", "source"),
        ("file:///home/user/secrets.txt", "local file"),
        ("CHROME://flags", "chrome:"),
    ],
)
def test_restricted_urls_are_not_read(url: str, words: str) -> None:
    result = extract_content(SOME_HTML, url)

    assert result.method == "restricted"
    assert not result.ok
    assert result.text == ""
    assert words in result.reason
    assert result.url == url


@pytest.mark.parametrize("url", ["https://example.com/", "http://localhost:8000/page", "data:text/html,<p>hi</p>", ""])
def test_ordinary_urls_are_not_restricted(url: str) -> None:
    assert restricted_url_reason(url) == ""


def test_pdf_in_the_browser_viewer_is_restricted() -> None:
    viewer = (
        '<html><body style="margin:0"><embed name="plugin" src="https://example.com/report.pdf" '
        'type="application/pdf"></body></html>'
    )

    result = extract_content(viewer, "https://example.com/report.pdf")

    assert result.method == "restricted"
    assert "PDF" in result.reason


def test_download_without_a_page_is_restricted() -> None:
    result = extract_content("", "https://example.com/files/setup.zip")

    assert result.method == "restricted"
    assert "archive" in result.reason


def test_pdf_shown_with_its_text_is_read() -> None:
    # A PDF rendered as HTML (a viewer like PDF.js) has text: that is worth reading.
    text = "Annual report. Revenue grew by twelve percent over the year, driven by exports to new markets. " * 5
    viewer = f"<html><head><title>report.pdf</title></head><body><div id='viewer'><p>{text}</p></div></body></html>"

    result = extract_content(viewer, "https://example.com/report.pdf")

    assert result.ok
    assert "Revenue grew by twelve percent" in result.text
