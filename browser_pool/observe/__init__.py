"""Layered page observation: a summary, an indexed element list, and element details on request, so the model
reads no more of a page than it uses.

The work happens in the page (`page_model.js`), one round trip per layer. Indices are stable while an element
lives on the page; actions resolve them back to the element (in its shadow root or iframe).
"""

from browser_pool.observe.api import (
    DEFAULT_BUDGET_CHARS,
    DETAILS_VALUE_CHARS,
    details_value_chars,
    get_element_details,
    get_elements,
    get_summary,
    observe,
    set_details_value_chars,
)
from browser_pool.observe.bridge import ObservationError, StaleElementError
from browser_pool.observe.types import (
    ELEMENT_KINDS,
    DetailsResult,
    ElementDetails,
    ElementInfo,
    ElementList,
    FocusedElement,
    Observation,
    PageSummary,
    Rect,
)

__all__ = [
    "DEFAULT_BUDGET_CHARS",
    "DETAILS_VALUE_CHARS",
    "ELEMENT_KINDS",
    "DetailsResult",
    "ElementDetails",
    "ElementInfo",
    "ElementList",
    "FocusedElement",
    "Observation",
    "ObservationError",
    "PageSummary",
    "Rect",
    "StaleElementError",
    "details_value_chars",
    "get_element_details",
    "get_elements",
    "get_summary",
    "observe",
    "set_details_value_chars",
]
