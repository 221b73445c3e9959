"""Enqueue Celery tasks by name. The tasks live in `workers/`, which the web process does not import."""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.result import AsyncResult
from django.conf import settings

_producer: Celery | None = None


def _app() -> Celery:
    global _producer
    if _producer is None:
        _producer = Celery("hive-web")
        _producer.config_from_object(settings, namespace="CELERY")
    return _producer


class _Sent(AsyncResult):  # type: ignore[type-arg]  # the stubs make it generic; Celery does not
    """What `send_task` hands back here: just the id. Celery's own result object builds the app's result backend,
    once per thread, reading every installed package's entry points (Daphne runs each request on a thread of its
    own): a third of an action's dispatch went there, and Hive never reads a task's result."""

    def __init__(self, task_id: str, **_: Any) -> None:  # no super(): that is what reads the backend
        self.id = task_id


def enqueue(task_name: str, *args: Any, queue: str | None = None) -> None:
    _app().send_task(
        task_name,
        args=list(args),
        queue=queue or settings.CELERY_TASK_DEFAULT_QUEUE,
        ignore_result=True,  # no result backend is touched on the way out
        result_cls=_Sent,
    )
