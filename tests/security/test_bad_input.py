"""Input that cannot hurt: JSON with lone surrogates, NUL characters or absurd nesting gets a JSON 400 saying what
is wrong and changes nothing; rows stored before these checks never make a page fail."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from tests.integration.conftest import open_stream
from webapp.conversations.models import Conversation, Message
from webapp.runs.models import Run
from webapp.runs.services import run_create_for_action, step_start

pytestmark = pytest.mark.django_db


def _post_raw(api: APIClient, path: str, body: str) -> tuple[int, dict[str, object]]:
    response = api.generic("POST", path, body, content_type="application/json")
    assert response["Content-Type"].startswith("application/json")
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('{"content": "hi \\ud800 there"}', "lone surrogate"),
        ('{"content": "a\\u0000b"}', "NUL"),
        ('{"content": "ok", "tab_ids": ["\\udfff"]}', "lone surrogate"),
        ('{"content": "' + "[" * 10 + '"}', ""),  # brackets inside a string are just text
    ],
)
def test_bad_text_in_a_message_is_refused(api: APIClient, conversation: Conversation, body: str, says: str) -> None:
    status, answer = _post_raw(api, f"/api/conversations/{conversation.pk}/messages/", body)
    if not says:
        assert status == 201, answer
        return
    assert status == 400
    assert says in str(answer["detail"])
    assert not Message.objects.exists()
    assert not Run.objects.exists()


def test_deep_nesting_is_a_json_400_not_a_crash(api: APIClient, conversation: Conversation) -> None:
    body = '{"action": "navigate", "arguments": ' + "[" * 100_000 + "]" * 100_000 + "}"
    status, answer = _post_raw(api, f"/api/conversations/{conversation.pk}/actions/", body)
    assert status == 400
    assert "nested deeper than 64 levels" in str(answer["detail"])
    assert not Run.objects.exists()


def test_a_lone_surrogate_in_action_arguments_is_refused(api: APIClient, conversation: Conversation) -> None:
    body = '{"action": "type", "arguments": {"selector": "#q", "text": "\\ud83d"}}'
    status, answer = _post_raw(api, f"/api/conversations/{conversation.pk}/actions/", body)
    assert status == 400
    assert "$.arguments.text contains a lone surrogate" in str(answer["detail"])
    assert not Run.objects.exists()


def test_rows_stored_before_the_checks_still_render(api: APIClient, conversation: Conversation) -> None:
    run = run_create_for_action(
        conversation=conversation, started_by=conversation.owner, action="type", arguments={"text": "\ud800"}
    )
    step_start(run_id=run.pk, kind="action", action="type", arguments={"text": "\ud800"})
    response = api.get(f"/api/conversations/{conversation.pk}/runs/")
    assert response.status_code == 200
    # SQLite keeps the lone surrogate in JSON (the API escapes it); PostgreSQL cannot hold one and stores U+FFFD.
    kept = "\ufffd" if connection.vendor == "postgresql" else "\\ud800"
    assert kept in response.content.decode("utf-8")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_websocket_message_with_bad_text_gets_an_error_and_the_socket_stays(user: User) -> None:
    from asgiref.sync import sync_to_async

    from tests.factories import ConversationFactory

    conversation = await sync_to_async(ConversationFactory)(owner=user)
    connected, _, stream = await open_stream(user, conversation.pk)
    assert connected
    await stream.until(lambda e: e["type"] == "hello")
    await stream.communicator.send_to(text_data='{"type": "ping", "x": "\\ud800"}')
    error = await stream.until(lambda e: e["type"] == "error")
    assert "lone surrogate" in error["detail"]
    await stream.communicator.send_json_to({"type": "ping"})
    assert (await stream.until(lambda e: e["type"] == "pong"))["type"] == "pong"
    await stream.communicator.disconnect()


def test_a_skill_whose_javascript_does_not_parse_is_refused_with_the_line() -> None:
    from webapp.skills.files import SkillFileError, parse_document

    document = {
        "format": "hive-skill/1",
        "name": "broken",
        "version": "1.0.0",
        "description": "A SKILL with a typo.",
        "match_patterns": ["*://*/*"],
        "tools": [
            {
                "name": "ok",
                "description": "Fine.",
                "handler": "const found = document.querySelector('#q')?.value ?? '';\nreturn found;",
            },
            {"name": "typo", "description": "Broken.", "handler": "const x = 1;\nreturn {a: ;"},
        ],
    }
    with pytest.raises(SkillFileError) as refused:
        parse_document(document)
    message = str(refused.value)
    assert "tool 2 'typo'" in message
    assert "does not parse: line 2" in message
