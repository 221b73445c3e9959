"""Whose stores a run draws on: the person who started it, recorded by every entry point, and only while they may still
act in the run's conversation. Secrets are resolved from that person's credentials and no one else's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.support.workflows import parameter, step, workflow_with
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run
from webapp.runs.selectors import run_starter
from webapp.sharing.models import Share
from webapp.workflows.models import Workflow, WorkflowShare
from webapp.workflows.services import credential_set, secrets_resolve

pytestmark = pytest.mark.django_db


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_every_entry_point_records_who_started_the_run() -> None:
    owner, mate = UserFactory(), UserFactory()
    conversation = ConversationFactory(owner=owner)
    Share.objects.create(conversation=conversation, user=mate, role="controller", created_by=owner)
    workflow_id = workflow_with(owner, "w", [step("navigate", "open", url="https://example.com/")])
    WorkflowShare.objects.create(workflow_id=workflow_id, user=mate, role="controller")
    api = _client(mate)
    base = f"/api/conversations/{conversation.pk}"
    for path, body in (
        (f"{base}/messages/", {"content": "hello"}),
        (f"{base}/actions/", {"action": "list_tabs", "arguments": {}}),
        (f"/api/workflows/{workflow_id}/runs/", {"conversation": conversation.pk}),
    ):
        answer = api.post(path, body, format="json")
        assert answer.status_code in (201, 202), answer.content
        run_id = answer.json()["run"]["id"] if "run" in answer.json() else answer.json()["id"]
        assert Run.objects.get(pk=run_id).started_by == mate
        Run.objects.filter(pk=run_id).update(status="succeeded")  # the conversation is idle again


def _teammates_run(mate_name: str = "") -> tuple[Run, Share, User, User]:
    owner, mate = UserFactory(), UserFactory(**({"username": mate_name} if mate_name else {}))
    conversation = ConversationFactory(owner=owner)
    share = Share.objects.create(conversation=conversation, user=mate, role="controller", created_by=owner)
    run = Run.objects.create(conversation=conversation, started_by=mate, kind="workflow")
    return run, share, owner, mate


def test_a_starter_who_may_no_longer_act_in_the_conversation_draws_on_no_store() -> None:
    run, share, _, mate = _teammates_run()
    assert run_starter(run_id=run.pk) == mate
    share.revoked_at = timezone.now()
    share.save()
    assert run_starter(run_id=run.pk) is None

    run, _, _, mate = _teammates_run()
    mate.is_active = False
    mate.save()
    assert run_starter(run_id=run.pk) is None
    unrecorded = Run.objects.create(conversation=ConversationFactory(), kind="workflow")
    assert run_starter(run_id=unrecorded.pk) is None


def test_secrets_come_from_the_starters_store_only() -> None:
    run, share, owner, mate = _teammates_run("mate")
    workflow = Workflow.objects.create(owner=mate, name="w")
    version = workflow.versions.create(number=1, steps=[], parameters=[parameter("pw", "Password", secret=True)])
    credential_set(owner=owner, name="bank", value="the owner's")
    with pytest.raises(ApplicationError) as only_the_owner_has_it:
        secrets_resolve(run_id=run.pk, version=version, values={"pw": "bank"})
    assert only_the_owner_has_it.value.message == (
        "No credential named 'bank' for the parameter pw in mate's credential store."
    )
    credential_set(owner=mate, name="bank", value="the teammate's")
    assert secrets_resolve(run_id=run.pk, version=version, values={"pw": "bank"}) == {"pw": "the teammate's"}
    share.revoked_at = timezone.now()
    share.save()
    with pytest.raises(ApplicationError, match="can no longer act in this conversation"):
        secrets_resolve(run_id=run.pk, version=version, values={"pw": "bank"})
