"""Observe a page in three layers. Each layer is one `page.evaluate` round trip into the page model."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browser_pool.net.proxy import listener_for
from browser_pool.observe.bridge import ObservationError, call_model, index_base, stale_reason
from browser_pool.observe.types import (
    ELEMENT_KINDS,
    DetailsResult,
    ElementDetails,
    ElementInfo,
    ElementList,
    Observation,
    PageSummary,
)

DEFAULT_BUDGET_CHARS = 12_000
SUMMARY_TEXT_CHARS = 500
# The most characters of field values one details answer carries, counted as the model reads them (JSON-quoted); a
# longer value comes in parts. The size of get_page_content's pages, and within what the agent keeps of one result.
DETAILS_VALUE_CHARS = 10_000
_value_chars = DETAILS_VALUE_CHARS


def set_details_value_chars(chars: int) -> None:
    """The worker's part size for field values (from its settings), for every details answer from now on."""
    global _value_chars
    if chars < 1:
        raise ValueError("a value part holds at least one character")
    _value_chars = chars


def details_value_chars() -> int:
    return _value_chars


async def get_summary(page: Page, *, text_chars: int = SUMMARY_TEXT_CHARS) -> PageSummary:
    """Layer 1: url, title, viewport and scroll, element counts, the first visible text, focus, open dialogs."""
    raw = await call_model(page, "summary", {"base": index_base(page), "textLimit": text_chars})
    summary = PageSummary.from_page(raw)
    firewall = listener_for(page.context)
    if firewall is not None and firewall.blocked_count:
        with contextlib.suppress(PlaywrightError):
            loaded_at = float(await page.evaluate("performance.timeOrigin")) / 1000
            summary.blocked_requests = firewall.blocked_after(loaded_at - 0.05)
    return summary


async def get_elements(
    page: Page,
    type: str = "all",  # noqa: A002 - the name the model uses in the get_elements action
    visible_only: bool = True,
    *,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
    whole_page_up_to: int = 0,
) -> ElementList:
    """Layer 2: the interactive elements of one kind (or all), in document order, cut to `budget_chars`.

    `visible_only` keeps the elements inside the viewport; otherwise every rendered element is listed and those
    outside the viewport are marked `offscreen`. With `whole_page_up_to`, a page that has at most that many (and
    whose list fits the budget) is listed whole even when `visible_only`, so a target below the fold needs no
    look-up. Elements that are not rendered (display:none, zero size, visibility:hidden) are never listed.
    Listing records a watermark: the next list marks later elements new and, when it is over the budget, keeps them
    first (a menu an action opened is often last in the document). `indices` holds every element the list stands
    for, those the budget left out included.
    """
    if type not in ELEMENT_KINDS:
        raise ObservationError(f"unknown element type {type!r}; use one of {', '.join(ELEMENT_KINDS)}")
    raw = await call_model(
        page,
        "elements",
        {
            "base": index_base(page),
            "kind": type,
            "visibleOnly": visible_only,
            "budget": budget_chars,
            "wholeUpTo": whole_page_up_to,
        },
    )
    return ElementList(
        items=[ElementInfo.from_page(item) for item in raw["items"]],
        lines=list(raw["lines"]),
        total=raw["total"],
        kind=type,
        visible_only=not raw["whole"],
        indices=list(raw["indices"]),
    )


async def get_element_details(
    page: Page, indices: Sequence[int], *, value_from: int = 1, value_chars: int | None = None
) -> DetailsResult:
    """Layer 3: the whole value, attributes, a unique CSS selector (within the element's document or shadow root),
    XPath, the parent's text and the number of children, for each index still alive.

    Values (a password's excepted, which stays masked) are exact and whole while together they fit `value_chars`
    characters as JSON quotes them (the worker's part size when not given); a longer one comes as the part that fits,
    from character `value_from` (counted from 1 in code points), with `value_part` saying which characters it holds and
    how to ask for the next part."""
    if value_chars is None:
        value_chars = _value_chars
    if value_from < 1 or value_chars < 1:
        raise ObservationError("value_from and value_chars count from 1")
    raw = await call_model(
        page,
        "details",
        {"base": index_base(page), "indices": list(indices), "valueFrom": value_from, "valueChars": value_chars},
    )
    found: list[ElementDetails] = []
    missing: dict[int, str] = {}
    for entry in raw:
        if entry["status"] == "ok":
            found.append(ElementDetails.from_page(entry))
        else:
            missing[entry["index"]] = stale_reason(entry["index"], entry["status"])
    return DetailsResult(found=found, missing=missing)


async def observe(page: Page, *, budget_chars: int = DEFAULT_BUDGET_CHARS) -> Observation:
    """The default per-step observation: the summary and the elements in view."""
    summary = await get_summary(page)
    elements = await get_elements(page, "all", visible_only=True, budget_chars=budget_chars)
    return Observation(summary=summary, elements=elements)
