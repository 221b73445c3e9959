"""Retention: what Hive keeps, for how long (settings in days; 0 keeps forever). Enforced by a scheduled task
(Celery beat, `workers.tasks.prune`) and by `manage.py prune`; rows that say what happened stay, their heavy or
personal parts go: step screenshots and run recordings, uploaded and downloaded files, runs' traces, the exact model
payloads of the debug log."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.files.storage import default_storage
from django.utils import timezone

from webapp.conversations.models import ConversationFile
from webapp.runs.models import ModelCall, Recording, Run, Step

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Pruned:
    screenshots: int
    uploads: int
    model_calls: int
    downloads: int = 0
    traces: int = 0
    recordings: int = 0


def _before(days: int) -> datetime | None:
    return timezone.now() - timedelta(days=days) if days > 0 else None


def _remove(name: str) -> None:
    try:
        default_storage.delete(name)
    except OSError as exc:
        log.warning("could not delete %s: %r", name, exc)


def _prune_files(origin: str, days: int) -> int:
    if (before := _before(days)) is None:
        return 0
    pruned = 0
    for stored in list(ConversationFile.objects.filter(origin=origin, created_at__lt=before)):
        name = str(stored.file.name)
        stored.delete()  # the row first: a file left over is harmless
        _remove(name)
        pruned += 1
    return pruned


def retention_prune() -> Pruned:
    screenshots = model_calls = recordings = 0
    if (before := _before(settings.HIVE_RETAIN_SCREENSHOTS_DAYS)) is not None:
        old = Step.objects.filter(started_at__lt=before).exclude(screenshot="")
        for step_id, name in list(old.values_list("pk", "screenshot")):
            Step.objects.filter(pk=step_id).update(screenshot="")  # the row first: a file left over is harmless
            _remove(name)
            screenshots += 1
        # A recording is the run's pictures between its steps: kept as long as the steps' own.
        for recording in list(Recording.objects.filter(created_at__lt=before)):
            name = str(recording.file.name)
            recording.delete()
            if name:
                _remove(name)
            recordings += 1
    uploads = _prune_files(ConversationFile.Origin.UPLOAD, settings.HIVE_RETAIN_UPLOADS_DAYS)
    downloads = _prune_files(ConversationFile.Origin.DOWNLOAD, settings.HIVE_RETAIN_DOWNLOADS_DAYS)
    if (before := _before(settings.HIVE_RETAIN_MODEL_LOGS_DAYS)) is not None:
        model_calls, _ = ModelCall.objects.filter(created_at__lt=before).delete()
    return Pruned(
        screenshots=screenshots,
        uploads=uploads,
        model_calls=model_calls,
        downloads=downloads,
        traces=_prune_traces(),
        recordings=recordings,
    )


def _prune_traces() -> int:
    if (before := _before(settings.HIVE_RETAIN_TRACES_DAYS)) is None:
        return 0
    pruned = 0
    for run_id, name in list(Run.objects.filter(created_at__lt=before).exclude(trace="").values_list("pk", "trace")):
        Run.objects.filter(pk=run_id).update(trace="")  # the row first: a file left over is harmless
        _remove(name)
        pruned += 1
    return pruned
