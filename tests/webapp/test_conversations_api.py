from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from webapp.conversations.models import Conversation, Message
from webapp.runs.models import Run

pytestmark = pytest.mark.django_db


def test_create_list_rename_delete(api: APIClient) -> None:
    created = api.post("/api/conversations/", {"title": "Flights"}, format="json")
    assert created.status_code == 201
    cid = created.json()["id"]
    assert [c["id"] for c in api.get("/api/conversations/").json()] == [cid]
    assert api.patch(f"/api/conversations/{cid}/", {"title": "Trips"}, format="json").json()["title"] == "Trips"
    assert api.delete(f"/api/conversations/{cid}/").status_code == 204
    assert api.get(f"/api/conversations/{cid}/").status_code == 404


def test_sending_a_message_stores_it_and_queues_a_run(api: APIClient, conversation: Conversation) -> None:
    response = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "Hello"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["message"]["content"] == "Hello"
    assert body["run"]["status"] == "queued"
    assert Run.objects.get(pk=body["run"]["id"]).messages.get().content == "Hello"
    messages = api.get(f"/api/conversations/{conversation.pk}/messages/").json()
    assert [(m["role"], m["content"]) for m in messages] == [("user", "Hello")]
    listed = api.get("/api/conversations/").json()
    assert listed[0]["last_run_status"] == "queued"


def test_an_untitled_conversation_is_named_after_its_first_message(api: APIClient, user: User) -> None:
    conversation = ConversationFactory(owner=user, title="")
    api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "Book a flight\nto Oslo"}, format="json")
    assert api.get(f"/api/conversations/{conversation.pk}/").json()["title"] == "Book a flight"


def test_a_second_message_while_a_run_is_active_is_refused(api: APIClient, conversation: Conversation) -> None:
    api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "first"}, format="json")
    response = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "second"}, format="json")
    assert response.status_code == 409
    assert "still working" in response.json()["detail"]
    assert Message.objects.filter(conversation=conversation).count() == 1


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"content": ""}, "content"),
        ({"content": "   "}, "empty"),
        ({}, "content"),
        ({"content": ["a"]}, "content"),
        ({"content": "x" * 20_001}, "too long"),
        ({"content": "ok", "tab_ids": "t1"}, "tab_ids"),
    ],
)
def test_bad_messages_get_a_clear_400_and_change_nothing(
    api: APIClient, conversation: Conversation, body: dict[str, object], expected: str
) -> None:
    response = api.post(f"/api/conversations/{conversation.pk}/messages/", body, format="json")
    assert response.status_code == 400
    assert expected in response.content.decode()
    assert not Message.objects.filter(conversation=conversation).exists()
    assert not Run.objects.filter(conversation=conversation).exists()


def test_a_number_as_content_is_taken_as_its_text(api: APIClient, conversation: Conversation) -> None:
    response = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": 5}, format="json")
    assert response.status_code == 201, response.content
    assert Message.objects.get(conversation=conversation).content == "5"


def test_malformed_json_is_a_400_with_a_message(api: APIClient, conversation: Conversation) -> None:
    response = api.generic(
        "POST",
        f"/api/conversations/{conversation.pk}/messages/",
        '{"content": "Hello"',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "Malformed request body" in response.json()["detail"]


def test_an_oversized_body_is_refused(api: APIClient, conversation: Conversation) -> None:
    response = api.generic(
        "POST",
        f"/api/conversations/{conversation.pk}/messages/",
        '{"content": "' + "x" * (3 * 1024 * 1024) + '"}',
        content_type="application/json",
    )
    assert response.status_code in (400, 413)
    assert not Message.objects.exists()


def test_unknown_ids_are_404(api: APIClient) -> None:
    assert api.get("/api/conversations/999999/").status_code == 404
    assert api.post("/api/conversations/999999/messages/", {"content": "hi"}, format="json").status_code == 404
    assert api.get("/api/runs/999999/").status_code == 404
    assert api.post("/api/runs/999999/abort/").status_code == 404
    assert api.get("/api/steps/999999/screenshot/").status_code == 404


def test_another_users_conversation_does_not_exist_for_me(api: APIClient, other_user: User) -> None:
    theirs = ConversationFactory(owner=other_user)
    other = APIClient()
    other.force_login(other_user)
    run_id = other.post(f"/api/conversations/{theirs.pk}/messages/", {"content": "secret"}, format="json").json()[
        "run"
    ]["id"]
    assert api.get("/api/conversations/").json() == []
    for method, path in [
        ("get", f"/api/conversations/{theirs.pk}/"),
        ("patch", f"/api/conversations/{theirs.pk}/"),
        ("delete", f"/api/conversations/{theirs.pk}/"),
        ("get", f"/api/conversations/{theirs.pk}/messages/"),
        ("post", f"/api/conversations/{theirs.pk}/messages/"),
        ("get", f"/api/conversations/{theirs.pk}/runs/"),
        ("get", f"/api/runs/{run_id}/"),
        ("post", f"/api/runs/{run_id}/abort/"),
    ]:
        response = getattr(api, method)(path, {"content": "x", "title": "x"}, format="json")
        assert response.status_code == 404, (method, path, response.status_code)
    assert Run.objects.get(pk=run_id).status == "queued"
    assert Message.objects.filter(conversation=theirs).count() == 1


def test_signed_out_requests_are_refused() -> None:
    client = APIClient()
    assert client.get("/api/conversations/").status_code == 403
    assert client.post("/api/conversations/", {}, format="json").status_code == 403


def test_aborting_a_queued_run_ends_it_at_once(api: APIClient, conversation: Conversation) -> None:
    run_id = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "hi"}, format="json").json()[
        "run"
    ]["id"]
    response = api.post(f"/api/runs/{run_id}/abort/")
    assert response.status_code == 202
    assert response.json()["status"] == "aborted"
    # The conversation accepts a new message once the run has ended.
    assert (
        api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "again"}, format="json").status_code
        == 201
    )


def test_conversation_list_does_not_query_per_conversation(api: APIClient, user: User) -> None:
    for _ in range(5):
        ConversationFactory(owner=user)
    with CaptureQueriesContext(connection) as queries:
        assert len(api.get("/api/conversations/").json()) == 5
    assert len(queries) <= 4


def test_openapi_schema_describes_the_api(api: APIClient) -> None:
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/conversations/{conversation_id}/messages/" in text
    assert "/api/runs/{run_id}/abort/" in text


def test_a_message_records_who_wrote_it(api: APIClient, conversation: Conversation, user: User) -> None:
    body = api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "Hello"}, format="json").json()
    assert body["message"]["author"] == user.username
    listed = api.get(f"/api/conversations/{conversation.pk}/messages/").json()
    assert listed[0]["author"] == user.username
