"""Workflows in Django admin: an operator sees each workflow with its versions, schedules and shares, and the
webhook delivery log; never the webhook's signing secret nor a credential's value."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ConversationFactory, UserFactory
from webapp.runs.models import Run
from webapp.workflows.models import WebhookDelivery, Workflow, WorkflowSchedule, WorkflowShare, WorkflowVersion
from webapp.workflows.services import credential_set
from webapp.workflows.webhooks import webhook_set

pytestmark = pytest.mark.django_db


def test_an_operator_sees_workflows_and_their_delivery_log_but_no_secret() -> None:
    owner, mate = UserFactory(username="ada"), UserFactory(username="grace")
    workflow = Workflow.objects.create(owner=owner, name="Nightly report")
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=[], note="Saved from run 7")
    WorkflowSchedule.objects.create(workflow=workflow, cron="0 3 * * *", timezone="Europe/Paris")
    WorkflowShare.objects.create(workflow=workflow, user=mate, role="viewer")
    secret = webhook_set(workflow=workflow, url="https://hooks.example/done")
    credential = credential_set(owner=owner, name="club-login", value="correct horse battery staple")
    delivery = WebhookDelivery.objects.create(
        workflow=workflow, run=Run.objects.create(conversation=ConversationFactory()), url="https://hooks.example/done", payload={"event": "x"}, attempts=2,
        log=[{"status_code": 500, "error": "the receiver answered 500"}],
    )  # fmt: skip
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))

    page = admin.get(f"/admin/workflows/workflow/{workflow.pk}/change/").content.decode()
    for shown in ("Nightly report", "Saved from run 7", "0 3 * * *", "Europe/Paris", "grace"):
        assert shown in page
    log = admin.get(f"/admin/workflows/webhookdelivery/{delivery.pk}/change/").content.decode()
    assert "the receiver answered 500" in log
    credentials = admin.get("/admin/workflows/credential/").content.decode()
    assert "club-login" in credentials
    everything = (
        page + log + credentials + admin.get(f"/admin/workflows/credential/{credential.pk}/change/").content.decode()
    )
    assert secret not in everything
    assert "correct horse battery staple" not in everything
    assert admin.get("/admin/workflows/credential/add/").status_code == 403
