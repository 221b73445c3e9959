"""Enqueue Celery tasks by name. The tasks live in `workers/`, which the web process does not import."""

from __future__ import annotations

from typing import Any

from celery import Celery
from django.conf import settings

_producer: Celery | None = None


def _app() -> Celery:
    global _producer
    if _producer is None:
        _producer = Celery("hive-web")
        _producer.config_from_object(settings, namespace="CELERY")
    return _producer


def enqueue(task_name: str, *args: Any, queue: str | None = None) -> None:
    _app().send_task(task_name, args=list(args), queue=queue or settings.CELERY_TASK_DEFAULT_QUEUE)
