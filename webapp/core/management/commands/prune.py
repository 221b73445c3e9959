"""Apply the retention settings now (the scheduled task does the same every day)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from webapp.core.retention import retention_prune


class Command(BaseCommand):
    help = (
        "Delete screenshots, recordings, uploads, downloads, traces and model logs older than the HIVE_RETAIN_* "
        "settings allow."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        pruned = retention_prune()
        self.stdout.write(
            f"removed {pruned.screenshots} screenshots, {pruned.recordings} recordings, {pruned.uploads} uploads, "
            f"{pruned.downloads} downloads, {pruned.traces} traces, {pruned.model_calls} model logs"
        )
