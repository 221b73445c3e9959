"""Celery tasks: thin. They take ids and hand the work to the worker's loop."""

from __future__ import annotations

from django.conf import settings

from workers.celery_app import app
from workers.runtime import runtime_get


@app.task(name="workers.tasks.run_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_turn(run_id: int) -> None:
    runtime_get().run_turn(run_id, timeout=settings.HIVE_TURN_TIMEOUT_S + 30)
