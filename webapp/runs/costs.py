"""What a model call used and cost, read from the summary the agent's model client logs with it, and a run's
totals over its logged calls."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, TypedDict

from django.db.models import Count, Q, Sum

from webapp.core.types import JsonObject
from webapp.runs.models import ModelCall


class CallFacts(TypedDict):
    model: str
    provider: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    cost_usd: Decimal | None


def call_facts(response: JsonObject) -> CallFacts:
    """The columns of a ModelCall from its logged response (agents/llm/client.py `_call_facts`). Anything missing
    or malformed reads as zero tokens and an unknown price, never as free."""
    usage = response.get("usage")
    counts = usage if isinstance(usage, dict) else {}
    return {
        "model": _text(response.get("model"), 200),
        "provider": _text(response.get("provider"), 20),
        "prompt_tokens": _count(counts.get("prompt_tokens")),
        "completion_tokens": _count(counts.get("completion_tokens")),
        "cached_tokens": _count(counts.get("cached_tokens")),
        "cost_usd": _money(response.get("cost_usd")),
    }


def _text(value: Any, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _money(value: Any) -> Decimal | None:
    if not isinstance(value, str):
        return None
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and amount >= 0 else None


@dataclass(frozen=True, slots=True)
class CallTotals:
    prompt_tokens: int
    completion_tokens: int
    cost_usd: Decimal
    unpriced_calls: int
    calls: int = 0


def run_call_totals(*, run_id: int) -> CallTotals:
    """A run's logged model calls added up: their tokens, the cost of those priced, and how many were not."""
    totals = ModelCall.objects.filter(run_id=run_id).aggregate(
        prompt=Sum("prompt_tokens", default=0),
        completion=Sum("completion_tokens", default=0),
        cost=Sum("cost_usd", default=Decimal(0)),
        unpriced=Count("pk", filter=Q(cost_usd__isnull=True)),
        calls=Count("pk"),
    )
    return CallTotals(totals["prompt"], totals["completion"], totals["cost"], totals["unpriced"], totals["calls"])
