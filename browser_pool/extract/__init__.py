"""Main-content extraction: a page's readable text for the model's context, without menus, ads and footers.

Plain Python on lxml and readability-lxml. `extract_page` reads a live Playwright tab; Playwright itself
is imported only when it is called.
"""

from browser_pool.extract.extractor import extract_content, without_text
from browser_pool.extract.limit import cut_at_word, truncation_mark
from browser_pool.extract.page import extract_page
from browser_pool.extract.restricted import restricted_url_reason
from browser_pool.extract.types import SAFETY_LIMIT, ExtractedContent, Method

__all__ = [
    "cut_at_word",
    "SAFETY_LIMIT",
    "ExtractedContent",
    "Method",
    "extract_content",
    "extract_page",
    "restricted_url_reason",
    "truncation_mark",
    "without_text",
]
