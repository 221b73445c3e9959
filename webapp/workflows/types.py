"""Shapes the workflows app stores as JSON, apart from the code that makes them, so its models import nothing else of
the app (the models are what everything else imports)."""

from __future__ import annotations

from typing import TypedDict


class WebhookAttempt(TypedDict):
    """One try at delivering, as the delivery's log keeps it."""

    at: str  # ISO 8601
    status_code: int | None  # None: no answer
    error: str  # "" when the receiver took it
    ms: int
