"""The workflows app's part in what happens elsewhere: a replay's end (its webhook), a schedule that goes (its beat
entry with it), an account deactivated or reactivated (its schedules stop or start again)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django_celery_beat.models import PeriodicTask

from webapp.runs.models import Run
from webapp.workflows.models import WorkflowSchedule
from webapp.workflows.schedules import schedules_follow_account
from webapp.workflows.webhooks import delivery_schedule


def on_run_finished(sender: Any, run: Run, **kwargs: Any) -> None:
    if run.kind == Run.Kind.WORKFLOW:
        delivery_schedule(run=run)


def schedule_removed(sender: Any, instance: WorkflowSchedule, **kwargs: Any) -> None:
    """However a schedule goes (deleted, or with its workflow or its owner's account), beat must not keep firing it."""
    if instance.periodic_task_id is not None:
        PeriodicTask.objects.filter(pk=instance.periodic_task_id).delete()


def account_saved(sender: Any, instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is None or "is_active" in update_fields:
        schedules_follow_account(user=instance)
