"""Who answers the agent's request for a person (ask_person): a teammate with control rights who takes the browser
and hands it back answers it as done, under their name; a viewer can neither take over nor answer; a hand-back with
nobody holding the browser, another conversation's request, a step's confirmation and a request past its time are
left as they are."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.runs.handoff import HANDOFF_ACTION, handoff_outcome
from webapp.runs.models import Confirmation, Run
from webapp.sharing.control import CONTROL_PREFIX
from webapp.sharing.models import Share

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_holders() -> None:
    """Ids repeat between tests (their rows are rolled back): forget control holders of old ones."""
    conn = placement.client()
    for key in conn.scan_iter(match=CONTROL_PREFIX + "*"):
        conn.delete(key)


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _asking(conversation: Conversation, *, action: str = HANDOFF_ACTION, minutes: int = 5) -> Confirmation:
    run = Run.objects.filter(conversation=conversation).first() or Run.objects.create(
        conversation=conversation, status=Run.Status.WAITING, started_by=conversation.owner
    )
    return Confirmation.objects.create(
        run=run, action=action, arguments={"reason": "Solve the captcha"}, reason="Solve the captcha",
        expires_at=timezone.now() + timedelta(minutes=minutes),
    )  # fmt: skip


def _shared(conversation: Conversation, role: str) -> Any:
    teammate = UserFactory()
    Share.objects.create(conversation=conversation, user=teammate, role=role, created_by=conversation.owner)
    return teammate


def _control(client: APIClient, conversation: Conversation, action: str) -> Any:
    return client.post(f"/api/conversations/{conversation.pk}/control/", {"action": action}, format="json")


def test_a_controller_who_takes_over_and_hands_back_answers_it_as_done() -> None:
    conversation = ConversationFactory()
    asked = _asking(conversation)
    step_question = _asking(conversation, action="execute_js")
    elsewhere = _asking(ConversationFactory())
    controller = _shared(conversation, "controller")
    hands = _client(controller)

    assert _control(hands, conversation, "take").status_code == 200
    asked.refresh_from_db()
    assert asked.status == "pending", "taking over alone is not an answer"
    assert _control(hands, conversation, "release").json() == {"holder": None}

    asked.refresh_from_db()
    assert asked.status == "approved"
    assert asked.decided_by == controller
    assert handoff_outcome(run_id=asked.run_id) == ("handed_back", controller.username)
    for untouched in (step_question, elsewhere):
        untouched.refresh_from_db()
        assert untouched.status == "pending"


def test_a_viewer_can_neither_take_over_nor_answer() -> None:
    conversation = ConversationFactory()
    asked = _asking(conversation)
    watcher = _client(_shared(conversation, "viewer"))
    assert _control(watcher, conversation, "take").status_code == 403
    assert _control(watcher, conversation, "release").status_code == 403
    answer = watcher.post(f"/api/confirmations/{asked.pk}/answer/", {"approve": True}, format="json")
    assert answer.status_code == 403
    asked.refresh_from_db()
    assert asked.status == "pending"
    assert handoff_outcome(run_id=asked.run_id) == ("timed_out", "")


def test_handing_back_with_nobody_holding_the_browser_or_too_late_answers_nothing() -> None:
    conversation = ConversationFactory()
    owner = _client(conversation.owner)
    asked = _asking(conversation)
    assert _control(owner, conversation, "release").status_code == 200
    asked.refresh_from_db()
    assert asked.status == "pending"

    Confirmation.objects.filter(pk=asked.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert _control(owner, conversation, "take").status_code == 200
    assert _control(owner, conversation, "release").status_code == 200
    asked.refresh_from_db()
    assert asked.status == "pending"  # settled as expired by the worker that waits for it, not as done
    assert handoff_outcome(run_id=asked.run_id) == ("timed_out", "")


def test_can_t_help_is_an_answer_the_agent_reads_as_declined() -> None:
    conversation = ConversationFactory()
    asked = _asking(conversation)
    owner = _client(conversation.owner)
    answer = owner.post(f"/api/confirmations/{asked.pk}/answer/", {"approve": False}, format="json")
    assert answer.status_code == 200, answer.content
    assert handoff_outcome(run_id=asked.run_id) == ("declined", conversation.owner.username)
