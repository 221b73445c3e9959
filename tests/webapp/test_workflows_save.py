"""Saving a run as a workflow: what becomes a parameter, and a password typed in the run is never kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from agents.observation import fence
from browser_pool.types import RecordedTarget
from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from webapp.runs.models import Run, Step
from webapp.workflows.services import workflow_save_from_run

pytestmark = pytest.mark.django_db


def _run_with(steps: list[tuple[str, dict[str, object], RecordedTarget]]) -> Run:
    conversation = ConversationFactory()
    run = Run.objects.create(conversation=conversation, status=Run.Status.SUCCEEDED)
    for index, (action, arguments, target) in enumerate(steps):
        Step.objects.create(run=run, index=index, action=action, arguments=arguments, target=target,
                            status=Step.Status.SUCCEEDED)  # fmt: skip
    return run


def test_typed_values_become_parameters_and_a_password_is_a_secret_without_its_value() -> None:
    user_field: RecordedTarget = {"tag": "input", "name": "Username", "attributes": {"name": "username"}}
    password_field: RecordedTarget = {
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
    user_field: RecordedTarget = {"tag": "input", "name": "Username", "attributes": {"name": "username"}}
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


def _saved_sign_in() -> tuple[Any, APIClient]:
    field: RecordedTarget = {"tag": "input", "name": "Username", "attributes": {"name": "username"},
                                "url": "https://club.example/login?next=/"}  # fmt: skip
    button: RecordedTarget = {
        "tag": "button",
        "name": "Sign in",
        "attributes": {},
        "url": "https://club.example/login",
    }
    run = _run_with(
        [
            ("navigate", {"url": "https://club.example/login"}, {}),
            ("type", {"index": 1, "text": "ada"}, field),
            ("click", {"index": 2}, button),
        ]
    )
    workflow = workflow_save_from_run(run=run, user=run.conversation.owner, name="Sign in")
    return workflow, signed_in(run.conversation.owner)


def test_the_owner_edits_steps_reorders_removes_and_adds_and_each_edit_is_checked_before_anything_changes() -> None:
    workflow, client = _saved_sign_in()
    before = client.get(f"/api/workflows/{workflow.pk}/").json()
    assert before["steps"][1]["checks"] == {"url": "https://club.example/login*"}
    assert before["steps"][1]["target"] == {"tag": "input", "role": "", "name": "Username"}

    edited = client.patch(
        f"/api/workflows/{workflow.pk}/",
        {
            "rename": {"username": "member"},
            "steps": [
                {"from": 0},
                {"action": "wait", "arguments": {"ms": 500}, "intent": "let the form settle"},
                {"action": "press_key", "arguments": {"key": "Escape"}, "intent": "close the cookie banner"},
                {"from": 2, "intent": "sign in", "checks": {"url": "https://club.example/*", "navigated": True}},
            ],
        },
        format="json",
    )
    assert edited.status_code == 200, edited.content
    body = edited.json()
    assert [(s["action"], s["intent"]) for s in body["steps"]] == [
        ("navigate", "navigate"), ("wait", "let the form settle"), ("press_key", "close the cookie banner"),
        ("click", "sign in"),
    ]  # fmt: skip
    assert body["steps"][3]["target"]["name"] == "Sign in"  # a step taken "from" keeps its element
    assert body["steps"][3]["checks"] == {"url": "https://club.example/*", "navigated": True}
    assert body["parameters"] == []  # the step that typed it is gone, so is the parameter
    assert workflow.versions.get(number=2).note == (
        "Edited: steps edited, renamed username to member, dropped username (no step uses it)"
    )

    for steps, why in (
        ([], "A workflow needs at least one step."),
        ([{"from": 9}], "Step 1: from is the position (0 to 3) of a step."),
        ([{"from": 0, "arguments": {"url": "{{nobody}}"}}], "Step 1: no parameter named nobody."),
        ([{"from": 3, "arguments": {"index": 4}}], "arguments is an object without an index"),
        ([{"from": 3, "action": "hover"}], "Step 1: a step that aims at an element keeps its action."),
        ([{"action": "click", "arguments": {}}], "Step 1: click needs an element"),
        ([{"action": "get_elements", "arguments": {}}], "is not an action a workflow can replay"),
        ([{"from": 0, "checks": {"smell": True}}], "there is no check 'smell'"),
        ([{"from": 0, "arguments": {"url": 7}}], "Step 1: invalid arguments for navigate"),
    ):
        refused = client.patch(f"/api/workflows/{workflow.pk}/", {"steps": steps}, format="json")
        assert refused.status_code == 400, steps
        assert why in refused.json()["detail"]
    assert workflow.versions.count() == 2


def test_an_extraction_is_kept_with_the_schema_of_what_it_returned() -> None:
    extracted = fence(json.dumps({"price": 12.5, "currency": "EUR"}), label="extracted json")
    run = _run_with([("navigate", {"url": "https://shop.example/item"}, {})])
    Step.objects.create(run=run, index=5, action="extract_data", arguments={"instruction": "the price"},
                        observation=extracted, status=Step.Status.SUCCEEDED)  # fmt: skip
    workflow = workflow_save_from_run(run=run, user=run.conversation.owner, name="Price")
    extraction = workflow.versions.get().steps[1]
    assert extraction["output"]["name"] == "data"
    assert extraction["output"]["schema"] == {
        "type": "object",
        "properties": {"price": {"type": "number"}, "currency": {"type": "string"}},
        "required": ["currency", "price"],
    }


def test_steps_of_a_conversation_save_as_a_workflow_only_from_that_conversation() -> None:
    run = _run_with([("navigate", {"url": "https://club.example/"}, {}), ("go_back", {}, {})])
    other = _run_with([("navigate", {"url": "https://other.example/"}, {})])
    first, last = run.steps.order_by("index")
    client = signed_in(run.conversation.owner)
    path = f"/api/conversations/{run.conversation_id}/workflow/"
    mixed = client.post(path, {"name": "w", "first_step": first.pk, "last_step": other.steps.get().pk}, format="json")
    assert mixed.status_code == 400
    assert mixed.json()["detail"] == "Both ends of the range must be steps of this conversation."
    backwards = client.post(path, {"name": "w", "first_step": last.pk, "last_step": first.pk}, format="json")
    assert backwards.status_code == 400
    saved = client.post(path, {"name": "Back", "first_step": first.pk, "last_step": last.pk}, format="json")
    assert saved.status_code == 201, saved.content
    assert [s["action"] for s in saved.json()["steps"]] == ["navigate", "go_back"]
    stranger = signed_in(ConversationFactory().owner)
    hidden = stranger.post(path, {"name": "w", "first_step": first.pk, "last_step": last.pk}, format="json")
    assert hidden.status_code == 404
