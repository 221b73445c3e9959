"""URL match patterns (Chrome-extension syntax): what matches, what does not, and what is refused and why."""

from __future__ import annotations

import pytest

from webapp.skills.patterns import parse_pattern, url_matches

MATCHES = [
    ("<all_urls>", "https://example.com/", True),
    ("<all_urls>", "http://localhost:8000/demo/shop/", True),
    ("<all_urls>", "file:///tmp/page.html", True),
    ("<all_urls>", "chrome://settings/", False),
    ("<all_urls>", "about:blank", False),
    ("*://*/*", "http://example.com/a", True),
    ("*://*/*", "https://example.com/", True),
    ("*://*/*", "ftp://example.com/", False),
    ("*://*/*", "file:///etc/hosts", False),
    ("https://*/*", "http://example.com/", False),
    ("*://*/demo/shop/*", "http://localhost:8000/demo/shop/", True),
    ("*://*/demo/shop/*", "http://127.0.0.1:54321/demo/shop/?q=mug#top", True),
    ("*://*/demo/shop/*", "https://hive.example.org/demo/shop/cart", True),
    ("*://*/demo/shop/*", "http://localhost:8000/demo/shop", False),
    ("*://*/demo/shop/*", "http://localhost:8000/demo/flights/", False),
    ("*://*.example.com/*", "https://example.com/", True),
    ("*://*.example.com/*", "https://shop.eu.example.com/x", True),
    ("*://*.example.com/*", "https://badexample.com/", False),
    ("*://*.example.com/*", "https://example.com.evil.net/", False),
    ("https://www.example.com/*", "https://WWW.Example.COM/Path", True),
    ("https://www.example.com/path", "https://www.example.com/Path", False),
    ("https://example.com/foo*bar", "https://example.com/foo/baz/bar", True),
    ("https://example.com/foo*bar", "https://example.com/foobar", True),
    ("https://example.com/foo*bar", "https://example.com/foo/bar/x", False),
    ("https://example.com/a.b", "https://example.com/aXb", False),
    ("https://example.com/search?q=*", "https://example.com/search?q=shoes", True),
    ("http://localhost/*", "http://localhost:8000/x", True),
    ("http://localhost:8000/*", "http://localhost:8000/x", True),
    ("http://localhost:8000/*", "http://localhost:9000/x", False),
    ("http://localhost:*/*", "http://localhost:9000/x", True),
    ("http://example.com:80/*", "http://example.com/", True),
    ("https://example.com:443/*", "https://example.com:8443/", False),
    ("http://127.0.0.1/*", "http://127.0.0.1:5000/page", True),
    ("http://[::1]/*", "http://[::1]:8000/page", True),
    ("file:///home/*", "file:///home/user/page.html", True),
    ("file:///home/*", "file:///etc/passwd", False),
    ("*://*/*", "not a url", False),
    ("*://*/*", "http://example.com:99999/", False),
]


@pytest.mark.parametrize(("pattern", "url", "expected"), MATCHES)
def test_pattern_matches_urls_as_chrome_does(pattern: str, url: str, expected: bool) -> None:
    assert parse_pattern(pattern).matches(url) is expected
    assert url_matches([pattern], url) is expected


def test_url_matches_any_of_several_patterns() -> None:
    patterns = ["https://a.example/*", "*://*/demo/shop/*"]
    assert url_matches(patterns, "http://localhost:8000/demo/shop/")
    assert url_matches(patterns, "https://a.example/x")
    assert not url_matches(patterns, "https://b.example/x")
    assert not url_matches([], "https://a.example/x")


INVALID = [
    ("", "empty"),
    (" https://*/*", "spaces"),
    ("https://example.com", "no path"),
    ("example.com/*", "'://'"),
    ("chrome://settings/*", "scheme 'chrome'"),
    ("ws://*/*", "scheme 'ws'"),
    ("https:///*", "no host"),
    ("https://*example.com/*", "first part"),
    ("https://www.*.com/*", "first part"),
    ("https://exa*mple.com/*", "first part"),
    ("https://example.com:abc/*", "invalid port"),
    ("https://example.com:0/*", "invalid port"),
    ("https://exa mple.com/*", "invalid host"),
    ("https://a..b/*", "invalid host"),
    ("https://[::1/*", "unclosed"),
    ("file://host/*", "no host"),
    ("<all_url>", "'://'"),
]


@pytest.mark.parametrize(("pattern", "message"), INVALID)
def test_invalid_patterns_are_refused_with_a_reason(pattern: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        parse_pattern(pattern)
    assert repr(pattern) in str(caught.value)


@pytest.mark.parametrize("value", [None, 3, ["https://*/*"]])
def test_non_strings_are_refused(value: object) -> None:
    with pytest.raises(ValueError, match="must be a string"):
        parse_pattern(value)  # type: ignore[arg-type]
