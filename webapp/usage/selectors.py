"""Reads of what the model cost: a user's calls per day and model, a conversation's totals, and what the server's
model cost a user in the last 24 hours (the money quota).

Whose spending a call is: runs do not record who started them, so a call counts to the owner of the conversation
it was made in, a teammate's message in a shared conversation included. `_spent_by` is the one place that decides;
once a run records who started it, that person is who it should name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, DecimalField, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from webapp.conversations.models import Conversation
from webapp.runs.models import ModelCall

MONEY = DecimalField(max_digits=18, decimal_places=10)


def _spent_by(user_id: int) -> Q:
    """The model calls that are this user's spending (see the module's note on shared conversations)."""
    return Q(run__conversation__owner_id=user_id)


@dataclass(frozen=True, slots=True)
class UsageRow:
    """One day's calls to one model (days are UTC dates)."""

    day: date
    model: str
    provider: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    cost_usd: Decimal
    unpriced_calls: int

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def first_day(days: int, *, now: datetime | None = None) -> date:
    """The first UTC date of a window of `days` days that ends today."""
    return (now or timezone.now()).astimezone(UTC).date() - timedelta(days=days - 1)


def usage_by_day(*, user: AbstractBaseUser | AnonymousUser, days: int, now: datetime | None = None) -> list[UsageRow]:
    """The user's model calls of the last `days` UTC days (today included), per day and model, oldest first."""
    if not user.is_authenticated:
        return []
    since = datetime.combine(first_day(days, now=now), datetime.min.time(), tzinfo=UTC)
    rows = (
        ModelCall.objects.filter(_spent_by(int(user.pk)), created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=UTC))
        .values("day", "model", "provider")
        .annotate(
            calls=Count("pk"),
            prompt=Sum("prompt_tokens"),
            completion=Sum("completion_tokens"),
            cached=Sum("cached_tokens"),
            cost=Coalesce(Sum("cost_usd"), Value(Decimal(0)), output_field=MONEY),
            unpriced=Count("pk", filter=Q(cost_usd__isnull=True)),
        )
        .order_by("day", "model", "provider")
    )
    return [
        UsageRow(
            day=row["day"],
            model=row["model"],
            provider=row["provider"],
            calls=row["calls"],
            prompt_tokens=row["prompt"],
            completion_tokens=row["completion"],
            cached_tokens=row["cached"],
            cost_usd=row["cost"],
            unpriced_calls=row["unpriced"],
        )
        for row in rows
    ]


def conversation_usage_annotations() -> dict[str, Any]:
    """For a queryset of conversations: each one's model calls added up (`usage_*`), in the same query."""
    calls = ModelCall.objects.filter(run__conversation_id=OuterRef("pk")).order_by().values("run__conversation_id")

    def total(expression: Any, output: Any) -> Coalesce:
        summed = Subquery(calls.annotate(total=expression).values("total")[:1], output_field=output)
        return Coalesce(summed, Value(0 if isinstance(output, IntegerField) else Decimal(0)), output_field=output)

    return {
        "usage_prompt_tokens": total(Sum("prompt_tokens"), IntegerField()),
        "usage_completion_tokens": total(Sum("completion_tokens"), IntegerField()),
        "usage_cost_usd": total(Sum("cost_usd"), MONEY),
        "usage_unpriced_calls": total(Count("pk", filter=Q(cost_usd__isnull=True)), IntegerField()),
    }


def conversation_usage(*, conversation: Conversation) -> dict[str, Any]:
    """A conversation's model calls added up: from the list selector's annotations when it made them, else asked."""
    annotated: Any = conversation
    if not hasattr(annotated, "usage_cost_usd"):
        annotated = Conversation.objects.annotate(**conversation_usage_annotations()).get(pk=conversation.pk)
    return {
        "prompt_tokens": annotated.usage_prompt_tokens,
        "completion_tokens": annotated.usage_completion_tokens,
        "cost_usd": annotated.usage_cost_usd,
        "unpriced_calls": annotated.usage_unpriced_calls,
    }


def server_model_spent(*, owner_id: int, since: datetime) -> tuple[Decimal, datetime | None]:
    """What the server's own model cost this user since `since` (calls in conversations without a profile of
    their own), and when the earliest of those calls was made."""
    calls = ModelCall.objects.filter(
        _spent_by(owner_id), created_at__gte=since, run__conversation__model_profile__isnull=True
    )
    totals = calls.aggregate(cost=Sum("cost_usd", default=Decimal(0)))
    first = calls.order_by("created_at").values_list("created_at", flat=True).first()
    return totals["cost"], first
