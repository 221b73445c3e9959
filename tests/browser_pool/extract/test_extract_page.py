"""extract_page reads a live tab; a stand-in Page records what was asked of it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from playwright.async_api import Error as PlaywrightError

from browser_pool.extract import extract_page

ARTICLE = (
    "<html><head><title>Document title</title></head><body><article>"
    + "<p>The lighthouse keeper wrote every night about the ships that passed the point, the weather and the sea.</p>"
    * 5
    + "</article></body></html>"
)


@dataclass
class StubPage:
    """The three members of playwright's async Page that extract_page uses (the page's HTML comes from evaluate)."""

    url: str
    html: str = ARTICLE
    tab_title: str = "Tab title"
    fail_with: Exception | None = None
    calls: list[str] = field(default_factory=list)

    async def evaluate(self, script: str) -> str:
        self.calls.append("evaluate")
        if self.fail_with is not None:
            raise self.fail_with
        return self.html

    async def title(self) -> str:
        self.calls.append("title")
        return self.tab_title


def run(page: StubPage, **kwargs: Any) -> Any:
    return asyncio.run(extract_page(cast(Any, page), **kwargs))


def test_reads_the_tab_content_url_and_title() -> None:
    page = StubPage(url="https://lighthouse.example/log")

    result = run(page)

    assert result.method == "readability"
    assert result.title == "Tab title"
    assert result.url == "https://lighthouse.example/log"
    assert "The lighthouse keeper wrote every night" in result.text
    assert page.calls == ["evaluate", "title"]


def test_limit_is_passed_through() -> None:
    result = run(StubPage(url="https://lighthouse.example/log"), limit=120)

    assert result.truncated
    assert len(result.text.split("\n\n[…")[0]) <= 120


@pytest.mark.parametrize("url", ["chrome://settings/", "about:blank", "chrome://downloads/", "file:///etc/hosts"])
def test_restricted_tab_is_answered_without_touching_the_page(url: str) -> None:
    page = StubPage(url=url)

    result = run(page)

    assert result.method == "restricted"
    assert result.reason
    assert page.calls == []


def test_a_page_that_cannot_be_read_gives_a_reason() -> None:
    page = StubPage(url="https://example.com/", fail_with=PlaywrightError("Execution context was destroyed\nmore"))

    result = run(page)

    assert result.method == "empty"
    assert result.reason == "The page could not be read: Execution context was destroyed"
