"""The reaper: no run stays queued or running for ever. Every worker runs it on its loop, and Celery beat sends it
as a task too (so it runs as long as any worker lives, even between worker restarts)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings

from webapp.core import placement
from webapp.runs.services import runs_fail_orphaned, runs_requeue_stranded

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reaped:
    failed: list[int]
    requeued: list[int]
    skipped_orphans: bool


def reap_once(*, also_alive: str = "") -> Reaped:
    """Fail runs whose worker stopped heartbeating; send queued runs nobody took again (or fail them, late).

    A Redis that has just restarted has lost every heartbeat: until a heartbeat's lifetime has passed, a missing
    one says nothing about its worker, so orphans are left for a later round."""
    redis = placement.client()
    alive = set(placement.alive_workers()) | ({also_alive} if also_alive else set())
    uptime_s = float(redis.info("server").get("uptime_in_seconds", 0))
    skipped = uptime_s < settings.HIVE_WORKER_HEARTBEAT_TTL_S
    failed = [] if skipped else runs_fail_orphaned(alive_worker_ids=alive)
    for run in failed:
        log.warning("run %s failed: its worker %s is gone", run.pk, run.worker_id)
    requeued = runs_requeue_stranded(alive_queues=[placement.worker_queue(worker_id) for worker_id in alive])
    for run in requeued:
        log.warning("run %s was not taken by a live worker; sent again", run.pk)
    return Reaped(failed=[run.pk for run in failed], requeued=[run.pk for run in requeued], skipped_orphans=skipped)
