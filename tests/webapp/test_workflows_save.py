"""Saving a run as a workflow: what becomes a parameter, and a password typed in the run is never kept."""

from __future__ import annotations

import json

import pytest

from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from webapp.runs.models import Run, Step
from webapp.workflows.services import workflow_save_from_run

pytestmark = pytest.mark.django_db


def _run_with(steps: list[tuple[str, dict[str, object], dict[str, object]]]) -> Run:
    conversation = ConversationFactory()
    run = Run.objects.create(conversation=conversation, status=Run.Status.SUCCEEDED)
    for index, (action, arguments, target) in enumerate(steps):
        Step.objects.create(run=run, index=index, action=action, arguments=arguments, target=target,
                            status=Step.Status.SUCCEEDED)  # fmt: skip
    return run


def test_typed_values_become_parameters_and_a_password_is_a_secret_without_its_value() -> None:
    user_field: dict[str, object] = {"tag": "input", "name": "Username", "attributes": {"name": "username"}}
    password_field: dict[str, object] = {
        "tag": "input",
        "name": "Password",
        "attributes": {"name": "pw", "type": "password"},
    }
    run = _run_with(
        [
            ("navigate", {"url": "https://club.example/login"}, {}),
            ("get_elements", {}, {}),
            ("type", {"index": 3, "text": "ada"}, user_field),
            ("type", {"index": 4, "text": "hunter2-very-secret"}, password_field),
        ]
    )
    workflow = workflow_save_from_run(run=run, user=run.conversation.owner, name="Sign in")
    version = workflow.versions.get()
    assert version.parameters == [
        {"name": "username", "type": "string", "default": "ada", "label": "Username"},
        {"name": "pw", "type": "secret", "default": "", "label": "Password"},
    ]
    assert [s["action"] for s in version.steps] == ["navigate", "type", "type"]
    assert version.steps[2]["arguments"] == {"text": "{{pw}}"}
    assert "hunter2-very-secret" not in json.dumps([version.steps, version.parameters])


def test_the_owner_renames_parameters_and_the_steps_follow_in_a_new_version() -> None:
    user_field: dict[str, object] = {"tag": "input", "name": "Username", "attributes": {"name": "username"}}
    run = _run_with(
        [("navigate", {"url": "https://club.example/"}, {}), ("type", {"index": 1, "text": "ada"}, user_field)]
    )
    owner = run.conversation.owner
    workflow = workflow_save_from_run(run=run, user=owner, name="Sign in")
    client = signed_in(owner)

    changed = client.patch(
        f"/api/workflows/{workflow.pk}/",
        {"name": "Club sign-in", "rename": {"username": "member"}, "defaults": {"username": "grace"}},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    body = changed.json()
    assert body["name"] == "Club sign-in"
    assert body["version"] == 2
    assert body["parameters"] == [{"name": "member", "type": "string", "default": "grace", "label": "Username"}]
    assert body["steps"][1]["arguments"] == {"text": "{{member}}"}
    assert workflow.versions.get(number=2).note == "Edited: renamed username to member, new default for username"

    for bad, why in (
        ({"rename": {"nobody": "x"}}, "Unknown parameter(s): nobody."),
        ({"rename": {"member": "2fast"}}, "not 2fast"),
    ):
        refused = client.patch(f"/api/workflows/{workflow.pk}/", bad, format="json")
        assert refused.status_code == 400
        assert why in refused.json()["detail"]
    assert workflow.versions.count() == 2
