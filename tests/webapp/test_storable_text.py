"""Text from pages and models with a NUL character or a lone UTF-16 surrogate is stored rather than failing the write
(webapp.core.storable): in text and JSON columns, through the services the worker calls, on both databases."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.factories import ConversationFactory
from webapp.conversations.models import Conversation
from webapp.runs.models import ModelCall, Step
from webapp.runs.services import model_call_record, run_create_for_action, step_finish, step_start

pytestmark = pytest.mark.django_db

ODD = "nul\x00 lone\ud800 pair\ud83d\ude00 done"


def test_a_step_and_a_model_call_with_odd_text_are_stored_and_read_back() -> None:
    conversation: Conversation = ConversationFactory()
    run = run_create_for_action(
        conversation=conversation, started_by=conversation.owner, action="type", arguments={"text": "ok"}
    )
    step = step_start(run_id=run.pk, kind="action", action="type", arguments={"text": ODD, ODD: "key"})
    step_finish(step_id=step.pk, status="succeeded", observation=ODD, error=ODD)
    model_call_record(run_id=run.pk, request={"messages": [{"content": ODD}]}, response={"text": ODD}, duration_ms=1)

    stored = Step.objects.get(pk=step.pk)
    call = ModelCall.objects.get(run=run)
    # PostgreSQL holds neither character; SQLite holds a NUL, and JSON keeps either escaped.
    on_postgres = connection.vendor == "postgresql"
    text = "nul\ufffd lone\ufffd pair\U0001f600 done" if on_postgres else "nul\x00 lone\ufffd pair\U0001f600 done"
    in_json = "nul\ufffd lone\ufffd pair\U0001f600 done" if on_postgres else "nul\x00 lone\ud800 pair\U0001f600 done"
    assert stored.observation == text
    assert stored.error == text
    assert stored.arguments == {"text": in_json, in_json: "key"}
    assert call.request == {"messages": [{"content": in_json}]}
    assert call.response == {"text": in_json}


def test_the_run_with_odd_text_renders_through_the_api(api: object, conversation: Conversation) -> None:
    run = run_create_for_action(
        conversation=conversation, started_by=conversation.owner, action="type", arguments={"text": "ok"}
    )
    step = step_start(run_id=run.pk, kind="action", action="type", arguments={"text": ODD})
    step_finish(step_id=step.pk, status="succeeded", observation=ODD)
    response = api.get(f"/api/conversations/{conversation.pk}/runs/")  # type: ignore[attr-defined]
    assert response.status_code == 200
    assert "pair\U0001f600 done" in json.dumps(response.json(), ensure_ascii=False)
