"""What an extraction returns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

Method = Literal["readability", "semantic", "body", "restricted", "empty"]

# A safety bound against pathological pages (megabytes of generated text), not a budget: articles of any real
# length are kept whole, and the model reads long ones page by page. A page that reaches it carries a visible mark.
SAFETY_LIMIT = 2_000_000


@dataclass(frozen=True, slots=True)
class ExtractedContent:
    """The readable text of one page, as stored with a shared tab and shown to the model.

    `length` is the length of the whole extracted text before any limit was applied (`truncated` says one cut
    it, which by default only the safety bound does); `reason` explains a restricted or empty result in words a user understands.
    """

    title: str
    url: str
    text: str
    length: int
    truncated: bool
    method: Method
    extracted_at: datetime
    reason: str = ""

    @property
    def ok(self) -> bool:
        """True when there is page text to give the model."""
        return self.method not in ("restricted", "empty")

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "url": self.url,
            "text": self.text,
            "length": self.length,
            "truncated": self.truncated,
            "method": self.method,
            "extracted_at": self.extracted_at.isoformat(),
            "reason": self.reason,
        }
