"""Who did what, and how a conversation is going: each run is numbered within its conversation and names the person
who set it going (their message, their action by hand, their replay), the same for everyone who reads it and in the
live `run.updated` event; a conversation's status follows its agent's runs, not an action typed by hand; a run says
whether it called the model; a replay's new conversation gets the starter's default model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.support.workflows import step, workflow_with
from webapp.conversations.models import Conversation
from webapp.core.events import ChannelMessage, set_sender
from webapp.llm.models import ModelProfile
from webapp.runs.models import ModelCall, Run
from webapp.sharing.models import Share

pytestmark = pytest.mark.django_db


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def published() -> Iterator[list[tuple[str, ChannelMessage]]]:
    sent: list[tuple[str, ChannelMessage]] = []
    set_sender(lambda group, message: sent.append((group, message)))
    yield sent
    set_sender(None)


def finish(run_id: int, status: str = "succeeded") -> None:
    Run.objects.filter(pk=run_id).update(status=status)


def test_runs_are_numbered_per_conversation_and_name_who_started_them(
    published: list[tuple[str, ChannelMessage]], django_capture_on_commit_callbacks: Any
) -> None:
    conversation = ConversationFactory()
    owner = client_of(conversation.owner)
    mate = UserFactory(username="bob")
    Share.objects.create(conversation=conversation, user=mate, role="controller", created_by=conversation.owner)
    base = f"/api/conversations/{conversation.pk}"

    sent = owner.post(f"{base}/messages/", {"content": "find flights"}, format="json")
    assert sent.status_code == 201
    assert (sent.json()["run"]["number"], sent.json()["run"]["started_by"]) == (1, conversation.owner.username)
    finish(sent.json()["run"]["id"])
    with django_capture_on_commit_callbacks(execute=True):
        acted = client_of(mate).post(
            f"{base}/actions/", {"action": "navigate", "arguments": {"url": "https://example.com/"}}, format="json"
        )
    assert acted.status_code == 202
    assert (acted.json()["number"], acted.json()["started_by"]) == (2, "bob")
    # The live event says the same to everyone watching.
    events = [m["event"] for _, m in published if m["type"] == "conversation.event"]
    assert events[-1]["type"] == "run.updated"
    assert (events[-1]["run"]["number"], events[-1]["run"]["started_by"]) == (2, "bob")

    other = ConversationFactory(owner=conversation.owner)
    first_elsewhere = owner.post(f"/api/conversations/{other.pk}/messages/", {"content": "hi"}, format="json")
    assert first_elsewhere.json()["run"]["number"] == 1

    # The owner and the teammate read the same authors and numbers.
    for reader in (owner, client_of(mate)):
        runs = reader.get(f"{base}/runs/").json()
        assert [(r["number"], r["kind"], r["started_by"]) for r in runs] == [
            (1, "turn", conversation.owner.username),
            (2, "action", "bob"),
        ]


def test_a_run_says_whether_it_called_the_model(api: APIClient, conversation: Conversation) -> None:
    turn = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi"}, format="json").json()["run"]
    assert turn["model_calls"] == 0
    ModelCall.objects.create(run_id=turn["id"], index=0, request={"messages": []})
    ModelCall.objects.create(run_id=turn["id"], index=1, request={"messages": []})
    finish(turn["id"])
    by_hand = api.post(
        f"/api/conversations/{conversation.pk}/actions/", {"action": "go_back", "arguments": {}}, format="json"
    ).json()
    runs = {r["id"]: r for r in api.get(f"/api/conversations/{conversation.pk}/runs/").json()}
    assert runs[turn["id"]]["model_calls"] == 2
    assert runs[by_hand["id"]]["model_calls"] == 0
    assert api.get(f"/api/runs/{turn['id']}/").json()["model_calls"] == 2


def test_the_conversation_status_follows_the_agent_not_a_mistyped_address(
    api: APIClient, conversation: Conversation
) -> None:
    turn = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi"}, format="json").json()["run"]
    finish(turn["id"], "succeeded")
    typo = api.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "navigate", "arguments": {"url": "htp:/x"}},
        format="json",
    ).json()
    finish(typo["id"], "failed")

    listed = next(c for c in api.get("/api/conversations/").json() if c["id"] == conversation.pk)
    assert listed["last_run_status"] == "succeeded"
    assert api.get(f"/api/conversations/{conversation.pk}/").json()["last_run_status"] == "succeeded"

    only_by_hand = ConversationFactory(owner=conversation.owner)
    failed = api.post(
        f"/api/conversations/{only_by_hand.pk}/actions/", {"action": "go_back", "arguments": {}}, format="json"
    ).json()
    finish(failed["id"], "failed")
    assert api.get(f"/api/conversations/{only_by_hand.pk}/").json()["last_run_status"] is None


@pytest.mark.parametrize("server_default", [False, True])
def test_a_replay_conversation_gets_the_starters_default_model(settings: Any, server_default: bool) -> None:
    settings.HIVE_LLM_BASE_URL = "https://models.example/v1" if server_default else ""
    settings.HIVE_LLM_MODEL = "served" if server_default else ""
    owner = UserFactory()
    for name in ("Zeta", "Alpha"):
        ModelProfile.objects.create(owner=owner, name=name, base_url="https://models.example/v1", model=name.lower())
    workflow_id = workflow_with(owner, "Open", [step("navigate", "Open the page", url="https://example.com/")])

    started = client_of(owner).post(f"/api/workflows/{workflow_id}/runs/", {}, format="json")

    assert started.status_code == 202, started.json()
    assert started.json()["started_by"] == owner.username
    replay = Conversation.objects.get(pk=started.json()["conversation"])
    # As a new conversation in the dashboard: the server's model when there is one, else the first of one's own.
    expected = None if server_default else ModelProfile.objects.get(owner=owner, name="Alpha").pk
    assert replay.model_profile_id == expected
