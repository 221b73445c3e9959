"""Per-user quotas an operator sets (0 = no limit), checked when a run is created: runs per hour, browser sessions
working at once, and tokens per day on the server's own model. A refusal is a 429 that says which limit and when
it resets."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Sum
from django.utils import timezone
from rest_framework import status

from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run


class QuotaExceededError(ApplicationError):
    def __init__(self, message: str, *, limit: str, resets_at: datetime | None) -> None:
        super().__init__(message, status_code=status.HTTP_429_TOO_MANY_REQUESTS)
        self.extra = {"limit": limit, "resets_at": resets_at.isoformat() if resets_at else None}


def quota_check(*, owner_id: int, uses_server_model: bool) -> None:
    """Raise QuotaExceededError when a new run for this owner would go past a limit."""
    now = timezone.now()
    runs = Run.objects.filter(conversation__owner_id=owner_id)
    per_hour = settings.HIVE_QUOTA_RUNS_PER_HOUR
    if per_hour:
        recent = runs.filter(created_at__gte=now - timedelta(hours=1)).order_by("created_at")
        if recent.count() >= per_hour:
            first = recent.first()
            resets = first.created_at + timedelta(hours=1) if first else None
            raise QuotaExceededError(
                f"You have started {per_hour} runs in the last hour, the most this server allows; "
                f"the next one can start at {_when(resets)}.",
                limit="runs_per_hour",
                resets_at=resets,
            )
    sessions = settings.HIVE_QUOTA_CONCURRENT_SESSIONS
    if sessions and runs.filter(status__in=Run.ACTIVE).values("conversation").distinct().count() >= sessions:
        raise QuotaExceededError(
            f"{sessions} of your conversations are working in their browsers already, the most this server allows "
            "at once; wait for one to finish or stop it.",
            limit="concurrent_sessions",
            resets_at=None,
        )
    tokens = settings.HIVE_QUOTA_TOKENS_PER_DAY
    if tokens and uses_server_model:
        since = now - timedelta(days=1)
        used = (
            runs.filter(created_at__gte=since, conversation__model_profile__isnull=True)
            .aggregate(total=Sum(F("prompt_tokens") + F("completion_tokens")))
            .get("total")
            or 0
        )
        if used >= tokens:
            oldest = runs.filter(created_at__gte=since).order_by("created_at").first()
            resets = oldest.created_at + timedelta(days=1) if oldest else None
            raise QuotaExceededError(
                f"You have used {used:,} tokens of the server's model in the last 24 hours (the limit is {tokens:,}); "
                f"more from {_when(resets)}, or add a model profile of your own in Settings.",
                limit="tokens_per_day",
                resets_at=resets,
            )


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "later"


def queue_check() -> None:
    """Beyond what the workers can take, runs wait in a queue of bounded length; a run past it is refused (429)
    instead of waiting for longer than anyone would."""
    limit = settings.HIVE_QUEUE_LIMIT
    if limit and Run.objects.filter(status=Run.Status.QUEUED).count() >= limit:
        raise QuotaExceededError(
            f"Hive is at capacity: {limit} runs are already waiting for a browser. Try again in a minute.",
            limit="queue",
            resets_at=None,
        )
