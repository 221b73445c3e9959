"""A schedule follows its owner's account: it replays as its owner (recorded as the run's starter), stops when the
account is deactivated (its beat entry disabled, and the admin says why), starts again when the account is
reactivated, and goes with the account when it is deleted (beat keeps no entry that fires nothing)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django_celery_beat.models import PeriodicTask

from tests.factories import UserFactory
from tests.integration.conftest import signed_in
from tests.support.workflows import step, workflow_with
from webapp.runs.models import Run
from webapp.workflows.models import WorkflowSchedule
from webapp.workflows.schedules import STOPPED, schedule_fire

pytestmark = pytest.mark.django_db


def _scheduled(owner: User) -> tuple[int, WorkflowSchedule]:
    workflow_id = workflow_with(owner, "Nightly report", [step("navigate", "open", url="https://example.com/")])
    made = signed_in(owner).post(f"/api/workflows/{workflow_id}/schedules/", {"cron": "0 3 * * *"}, format="json")
    assert made.status_code == 201, made.content
    return workflow_id, WorkflowSchedule.objects.select_related("periodic_task").get(pk=made.json()["id"])


def _entry(schedule: WorkflowSchedule) -> PeriodicTask:
    assert schedule.periodic_task_id is not None
    return PeriodicTask.objects.get(pk=schedule.periodic_task_id)


def _admin_page(workflow_id: int) -> str:
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    return html.unescape(admin.get(f"/admin/workflows/workflow/{workflow_id}/change/").content.decode())


def test_a_schedule_replays_as_its_owner_and_stops_while_the_account_is_deactivated() -> None:
    owner = UserFactory(username="ada")
    workflow_id, schedule = _scheduled(owner)
    assert _entry(schedule).enabled
    assert "Fires on time." in _admin_page(workflow_id)

    fired = schedule_fire(schedule_id=schedule.pk)
    assert fired is not None
    assert fired.started_by == owner
    assert fired.conversation.owner == owner

    owner.is_active = False
    owner.save(update_fields=["is_active"])
    entry = _entry(schedule)
    assert not entry.enabled
    assert entry.description.startswith(STOPPED)
    assert STOPPED in _admin_page(workflow_id)
    runs = Run.objects.count()
    assert schedule_fire(schedule_id=schedule.pk) is None  # a firing beat had already planned starts nothing
    assert Run.objects.count() == runs

    owner.is_active = True
    owner.save()
    entry = _entry(schedule)
    assert entry.enabled
    assert entry.description == f"Nightly report ({owner})"
    assert "Fires on time." in _admin_page(workflow_id)


def test_an_entry_disabled_by_the_operator_stays_disabled_when_the_account_comes_back() -> None:
    owner = UserFactory()
    _, schedule = _scheduled(owner)
    PeriodicTask.objects.filter(pk=schedule.periodic_task_id).update(enabled=False)
    owner.is_active = False
    owner.save()
    owner.is_active = True
    owner.save()
    assert not _entry(schedule).enabled


def test_a_deleted_accounts_schedules_leave_no_beat_entry() -> None:
    owner = UserFactory()
    _, schedule = _scheduled(owner)
    entry_id = schedule.periodic_task_id
    owner.delete()
    assert not WorkflowSchedule.objects.filter(pk=schedule.pk).exists()
    assert not PeriodicTask.objects.filter(pk=entry_id).exists()
    assert schedule_fire(schedule_id=schedule.pk) is None
