"""The Celery app. Start a worker with `celery -A workers.celery_app worker --pool threads`."""

from __future__ import annotations

import logging
import os
from typing import Any

import django
from celery import Celery
from celery.signals import worker_ready, worker_shutdown, worker_shutting_down

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings.local")
django.setup()

app = Celery("hive", include=["workers.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")


@worker_ready.connect
def _start_runtime(sender: Any = None, **kwargs: Any) -> None:
    from browser_pool.sandbox import SandboxUnavailableError
    from workers.runtime import runtime_start

    hostname = getattr(sender, "hostname", None) or os.uname().nodename
    try:
        runtime = runtime_start(hostname=hostname)
    except SandboxUnavailableError as exc:
        # A worker that cannot isolate its pages must not take any: it stops here, saying why (Celery would log an
        # ordinary exception from this handler and go on consuming tasks it cannot run).
        logging.getLogger(__name__).critical("the worker refuses to start: %s", exc)
        raise SystemExit(1) from exc
    # Turns for sessions this worker holds are sent to its own queue (webapp.core.placement).
    if sender is not None and hasattr(sender, "add_task_queue"):
        sender.add_task_queue(runtime.queue)


@worker_shutting_down.connect
def _end_runs(**kwargs: Any) -> None:
    """Warm shutdown (SIGTERM: a deploy, a restart, compose stopping): the runs in progress end now, failed with a
    reason the user reads, instead of keeping the process alive until the orchestrator kills it."""
    from workers.runtime import runtime_end_runs

    runtime_end_runs()


@worker_shutdown.connect
def _stop_runtime(**kwargs: Any) -> None:
    from workers.runtime import runtime_stop

    runtime_stop()
