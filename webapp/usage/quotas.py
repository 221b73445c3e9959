"""The money quota: what the server's own model may cost one user in 24 hours (`HIVE_QUOTA_USD_PER_DAY`, 0 = no
limit), beside the token quota (webapp/runs/quotas.py) and answered the same way: a 429 that says which limit and
when it resets. Calls the price table cannot price count as nothing here: the operator who runs a model the table
does not know sets its price (`HIVE_LLM_PRICE_*_PER_MTOK`) for this quota to see it."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from webapp.runs.quotas import QuotaExceededError
from webapp.usage.selectors import server_model_spent


def money_quota_check(*, owner_id: int, uses_server_model: bool) -> None:
    """Raise QuotaExceededError when the server's model already cost this user their daily amount."""
    limit = settings.HIVE_QUOTA_USD_PER_DAY
    if not limit or not uses_server_model:
        return
    spent, first = server_model_spent(owner_id=owner_id, since=timezone.now() - timedelta(days=1))
    if spent < limit:
        return
    resets = first + timedelta(days=1) if first else None
    when = resets.strftime("%Y-%m-%d %H:%M UTC") if resets else "later"
    raise QuotaExceededError(
        f"The server's model has cost ${spent:,.2f} for you in the last 24 hours (the limit is ${limit:,.2f}); "
        f"more from {when}, or add a model profile of your own in Settings.",
        limit="usd_per_day",
        resets_at=resets,
    )
