"""Workflow schedules: a cron expression in a time zone becomes a django-celery-beat PeriodicTask that sends
`workers.tasks.run_scheduled_workflow`; each firing replays the workflow in a new conversation, like a run started
by hand (quotas, the queue bound and the owner's rights apply)."""

from __future__ import annotations

import json
import logging
import zoneinfo

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django_celery_beat.models import CrontabSchedule, PeriodicTask
from django_celery_beat.validators import crontab_validator

from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.profiles.models import BrowserProfile
from webapp.runs.models import Run
from webapp.workflows.models import Workflow, WorkflowSchedule
from webapp.workflows.services import parameters_resolve, workflow_run_start

log = logging.getLogger(__name__)

FIRE_TASK = "workers.tasks.run_scheduled_workflow"
# How a beat entry stopped with its owner's account says so (in its description).
STOPPED = "Stopped: its owner's account is deactivated."


def _crontab(cron: str, timezone: str) -> CrontabSchedule:
    fields = cron.split()
    if len(fields) != 5:
        raise ApplicationError("A schedule is five cron fields: minute hour day-of-month month day-of-week.")
    try:
        crontab_validator(" ".join(fields))
    except ValidationError as exc:
        raise ApplicationError(f"Not a valid cron expression: {'; '.join(exc.messages)}") from exc
    try:
        zone = zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ApplicationError(f"Unknown time zone {timezone!r}; use a name like Europe/Paris or UTC.") from exc
    minute, hour, day_of_month, month_of_year, day_of_week = fields
    schedule, _ = CrontabSchedule.objects.get_or_create(
        minute=minute, hour=hour, day_of_month=day_of_month, month_of_year=month_of_year, day_of_week=day_of_week,
        timezone=zone,
    )  # fmt: skip
    return schedule


@transaction.atomic
def schedule_create(
    *,
    workflow: Workflow,
    cron: str,
    timezone: str,
    parameters: JsonObject,
    confirmations: str = "wait",
    profile: BrowserProfile | None = None,
    profile_writes: bool = True,
) -> WorkflowSchedule:
    version = workflow.versions.order_by("-number").first()
    if version is None:
        raise ApplicationError("This workflow has no steps.")
    values = parameters_resolve(version, parameters)  # unknown names are refused now, not at 3 a.m.
    crontab = _crontab(cron.strip(), timezone.strip() or "UTC")
    schedule = WorkflowSchedule.objects.create(workflow=workflow, cron=" ".join(cron.split()),
                                               timezone=str(crontab.timezone), parameters=values,
                                               confirmations=confirmations, profile=profile,
                                               profile_writes=profile_writes)  # fmt: skip
    schedule.periodic_task = PeriodicTask.objects.create(
        name=f"workflow-schedule-{schedule.pk}",
        task=FIRE_TASK,
        crontab=crontab,
        args=json.dumps([schedule.pk]),
        queue=settings.CELERY_TASK_DEFAULT_QUEUE,
        description=f"{workflow.name} ({workflow.owner})",
    )
    schedule.save(update_fields=["periodic_task"])
    return schedule


@transaction.atomic
def schedule_delete(*, schedule: WorkflowSchedule) -> None:
    """The schedule and its beat entry (receivers.schedule_removed: however it goes, with its workflow or owner too)."""
    schedule.delete()


@transaction.atomic
def schedules_follow_account(*, user: User) -> None:
    """A deactivated account's schedules stop (their beat entries disabled, saying why, which the admin's Periodic
    tasks and each workflow's schedules show); they start again when the account is reactivated. An entry disabled
    for another reason is left as it is."""
    entries = PeriodicTask.objects.filter(pk__in=WorkflowSchedule.objects.filter(workflow__owner=user)
                                          .values("periodic_task_id"))  # fmt: skip
    for entry in entries:
        stopped_here = not entry.enabled and entry.description.startswith(STOPPED)
        if not user.is_active and entry.enabled:
            entry.enabled, entry.description = False, f"{STOPPED} {entry.description}"
        elif user.is_active and stopped_here:
            entry.enabled, entry.description = True, entry.description.removeprefix(STOPPED).strip()
        else:
            continue
        entry.save(update_fields=["enabled", "description"])  # a save, so beat hears of it


def schedule_fire(*, schedule_id: int) -> Run | None:
    """What beat's task does: start the replay (or log why it could not start)."""
    schedule = WorkflowSchedule.objects.select_related("workflow__owner").filter(pk=schedule_id).first()
    if schedule is None:
        return None
    workflow = schedule.workflow
    if not workflow.owner.is_active:
        # Beat's copy of the schedule may be older than the account's deactivation: stop it here too.
        schedules_follow_account(user=workflow.owner)
        log.warning("scheduled replay of workflow %s not started: its owner's account is deactivated", workflow.pk)
        return None
    try:
        run = workflow_run_start(
            workflow=workflow,
            user=workflow.owner,
            parameters=schedule.parameters,
            extra={"schedule": schedule.pk, "confirmations": schedule.confirmations},
            profile=schedule.profile,
            profile_writes=schedule.profile_writes,
        )
    except (ApplicationError, Http404) as exc:
        reason = (
            exc.message
            if isinstance(exc, ApplicationError)
            else "its browser profile is no longer shared with its owner"
        )
        log.warning("scheduled replay of workflow %s did not start: %s", workflow.pk, reason)
        return None
    schedule.last_run = run
    schedule.save(update_fields=["last_run"])
    return run
