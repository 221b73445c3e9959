"""A run's recording through the whole stack: the agent (the scripted model) clicks a button after which the page
goes on changing while the model thinks; the run's recording has frames of that, placed in the click's step and
captured after it ended; its owner and a viewer can read the frames, a stranger gets 404; an action by hand is not
recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index, user_request
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.workflows import ended
from webapp.runs.models import Run
from webapp.sharing.models import Share

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

THINKING_S = 2.5  # the model's answer after the click comes this late: the page changes meanwhile


def _clicks_and_waits(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("navigate", lambda: {"url": user_request(request).split()[-1]}),
        ("get_elements", lambda: {}),
        ("click", lambda: {"index": find_index(request, "Start")}),
        ("get_elements", lambda: {}),
    ]
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}], delay_s=THINKING_S if len(made) == 3 else 0)
    return Reply(content="It is done.")


def _agent_does(client: APIClient, conversation_id: int, task: str) -> Run:
    sent = client.post(f"/api/conversations/{conversation_id}/messages/", {"content": task}, format="json")
    assert sent.status_code == 201, sent.content
    run = ended(sent.json()["run"]["id"], seconds=90)
    assert run.status == "succeeded", run.error
    return run


def test_a_run_is_recorded_between_its_steps_for_its_readers_only(llm: ScriptedLLM, pages: str) -> None:
    llm.script(_clicks_and_waits)
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    run = _agent_does(owner, conversation.pk, f"Start the job on {pages}/progress.html")

    listed = owner.get(f"/api/runs/{run.pk}/recording/")
    assert listed.status_code == 200, listed.content
    recording = listed.json()
    frames = recording["frames"]
    assert frames, "the run was recorded"
    assert [f["at_ms"] for f in frames] == sorted(f["at_ms"] for f in frames)
    assert recording["bytes"] > 0
    assert not recording["truncated"]

    # Frames of the page changing after the click, before the next step: in the click's step, captured after it ended.
    click = run.steps.get(action="click")
    click_ended_ms = click.started_at.timestamp() * 1000 + (click.duration_ms or 0)
    next_step = run.steps.get(index=click.index + 1)
    after_click = [
        f for f in frames if f["source"] == "frame" and f["step"] == click.index and f["at_ms"] > click_ended_ms
    ]
    assert after_click, (click_ended_ms, [(f["step"], f["at_ms"]) for f in frames])
    assert all(f["at_ms"] < next_step.started_at.timestamp() * 1000 for f in after_click)
    assert all(f["step_id"] == click.pk for f in after_click)
    assert {f["step"] for f in frames} >= {0, click.index}, "frames of several steps, each placed in its own"
    # The steps' own pictures are in it too, each where its step ended.
    pictures = [f for f in frames if f["source"] == "step"]
    assert [f["step_id"] for f in pictures] == list(
        run.steps.exclude(screenshot="").order_by("index").values_list("pk", flat=True)
    )
    assert all(f["url"].endswith(f"/steps/{f['step_id']}/screenshot/") for f in pictures)

    viewer, stranger = UserFactory(), UserFactory()
    Share.objects.create(conversation=conversation, user=viewer, role="viewer", created_by=conversation.owner)
    for reader in (owner, signed_in(viewer)):
        assert reader.get(f"/api/runs/{run.pk}/recording/").json() == recording
        got = reader.get(after_click[0]["url"])
        assert got.status_code == 200
        assert got["Content-Type"] == "image/jpeg"
        assert got.content[:2] == b"\xff\xd8"
    outsider = signed_in(stranger)
    assert outsider.get(f"/api/runs/{run.pk}/recording/").status_code == 404
    assert outsider.get(after_click[0]["url"]).status_code == 404
    assert owner.get(f"/api/runs/{run.pk}/recording/frames/{len(frames)}/").status_code == 404


def test_an_action_by_hand_is_not_recorded(pages: str) -> None:
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    sent = owner.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "navigate", "arguments": {"url": f"{pages}/progress.html"}},
        format="json",
    )
    assert sent.status_code == 202, sent.content
    run = ended(sent.json()["id"], seconds=60)
    assert run.status == "succeeded", run.error
    missing = owner.get(f"/api/runs/{run.pk}/recording/")
    assert missing.status_code == 404
    assert missing.json()["detail"] == "This run has no recording."
