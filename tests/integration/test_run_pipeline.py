"""The whole pipeline: API → Celery (a real worker) → the worker's loop → model → database → websocket."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.conftest import start_ready_worker
from tests.factories import ConversationFactory, UserFactory
from tests.support.llm_server import AGENT_ADDED, Reply, ScriptedLLM, last_user_text
from tests.support.processes import Managed
from webapp.conversations.models import Message
from webapp.core.queue import enqueue
from webapp.runs.models import Run
from webapp.runs.services import RUN_TURN_TASK

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.slow,
    pytest.mark.usefixtures("celery_worker"),
]


def _client_sync(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


async def _client(user: Any) -> APIClient:
    return await sync_to_async(_client_sync)(user)


async def _send(user: Any, conversation_id: int, text: str) -> dict[str, Any]:
    response = await sync_to_async((await _client(user)).post)(
        f"/api/conversations/{conversation_id}/messages/", {"content": text}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


async def test_reply_streams_to_the_websocket_and_is_stored(
    llm: ScriptedLLM, stream_factory: Callable[..., Any], run_done: Callable[[dict[str, Any]], bool]
) -> None:
    def answer(request: dict[str, Any]) -> Reply:
        return Reply(content=f"The capital of {last_user_text(request)} is Oslo.", chunk_size=3, chunk_delay_s=0.02)

    llm.script(answer)
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    sent = await _send(conversation.owner, conversation.pk, "Norway")

    done = await stream.until(run_done)
    assert done["run"]["status"] == "succeeded", done["run"]["error"]
    assert done["run"]["completion_tokens"] > 0
    deltas = [e["delta"] for e in stream.of_type("assistant.delta") if e["run"] == sent["run"]["id"]]
    assert len(deltas) > 1, "the reply should arrive in pieces while it streams"
    assert "".join(deltas) == "The capital of Norway is Oslo."
    stored = [e["message"] for e in stream.of_type("message.created")]
    assert [(m["role"], m["content"]) for m in stored] == [
        ("user", "Norway"),
        ("assistant", "The capital of Norway is Oslo."),
    ]
    statuses = [e["run"]["status"] for e in stream.of_type("run.updated")]
    assert statuses[0] == "queued"
    assert "running" in statuses
    assert statuses[-1] == "succeeded"


async def test_the_model_sees_the_conversation_history(
    llm: ScriptedLLM, stream_factory: Callable[..., Any], run_done: Callable[[dict[str, Any]], bool]
) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    await _send(conversation.owner, conversation.pk, "first question")
    await stream.until(run_done)
    stream.events.clear()
    await _send(conversation.owner, conversation.pk, "second question")
    await stream.until(run_done)
    sent = [
        (m["role"], m["content"])
        for m in llm.requests[-1]["messages"]
        if m["role"] != "system" and not str(m["content"]).startswith(AGENT_ADDED)
    ]
    assert sent == [
        ("user", "first question"),
        ("assistant", "You said: first question"),
        ("user", "second question"),
    ]
    messages: list[str] = await sync_to_async(
        lambda: list(Message.objects.filter(conversation=conversation).values_list("role", flat=True))
    )()
    assert messages == ["user", "assistant", "user", "assistant"]


async def test_a_model_error_fails_the_run_with_a_readable_reason(
    llm: ScriptedLLM, stream_factory: Callable[..., Any], run_done: Callable[[dict[str, Any]], bool]
) -> None:
    llm.script(lambda request: Reply(status=401, error="bad key"))
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    await _send(conversation.owner, conversation.pk, "hello")
    done = await stream.until(run_done)
    assert done["run"]["status"] == "failed"
    assert "API key" in done["run"]["error"]


async def test_stop_aborts_a_streaming_reply_at_once(
    llm: ScriptedLLM, stream_factory: Callable[..., Any], run_done: Callable[[dict[str, Any]], bool]
) -> None:
    llm.script(lambda request: Reply(content="word " * 400, chunk_size=5, chunk_delay_s=0.05))
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    sent = await _send(conversation.owner, conversation.pk, "talk for a long time")
    await stream.until(lambda e: e["type"] == "assistant.delta")
    started = time.monotonic()
    response = await sync_to_async((await _client(conversation.owner)).post)(f"/api/runs/{sent['run']['id']}/abort/")
    assert response.status_code == 202
    done = await stream.until(run_done, wait_s=10)
    assert time.monotonic() - started < 3
    assert done["run"]["status"] == "aborted"
    assert done["run"]["error"] == "Stopped by the user."
    roles: list[str] = await sync_to_async(
        lambda: list(Message.objects.filter(conversation=conversation).values_list("role", flat=True))
    )()
    assert roles == ["user"]
    # The conversation takes a new message right away.
    llm.script(lambda request: Reply(content="back again"))
    await _send(conversation.owner, conversation.pk, "hello again")


@pytest.fixture
def nomodel_worker(services_env: dict[str, str], redis_url: str) -> Any:
    env = {**services_env, "HIVE_LLM_BASE_URL": "", "HIVE_LLM_MODEL": ""}
    worker = start_ready_worker("nomodel", env, redis_url, queues="nomodel")
    yield worker
    worker.stop()


def _queued_run(conversation: Any, text: str) -> Run:
    run = Run.objects.create(conversation=conversation)
    Message.objects.create(conversation=conversation, role="user", content=text, run=run)
    return run


async def test_without_a_model_the_run_fails_with_a_clear_message(
    nomodel_worker: Managed, stream_factory: Callable[..., Any], run_done: Callable[[dict[str, Any]], bool]
) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    stream = await stream_factory(conversation.owner, conversation.pk)
    run = await sync_to_async(_queued_run)(conversation, "hello?")
    await sync_to_async(enqueue)(RUN_TURN_TASK, run.pk, queue="nomodel")
    done = await stream.until(run_done)
    assert done["run"]["status"] == "failed"
    assert done["run"]["error"].startswith("No model is configured.")
    assert "HIVE_LLM_BASE_URL" in done["run"]["error"]


async def test_a_second_user_cannot_read_the_first_users_run(llm: ScriptedLLM) -> None:
    owner = await sync_to_async(UserFactory)()
    conversation = await sync_to_async(ConversationFactory)(owner=owner)
    sent = await _send(owner, conversation.pk, "private")
    stranger = await sync_to_async(UserFactory)()
    response = await sync_to_async((await _client(stranger)).get)(f"/api/runs/{sent['run']['id']}/")
    assert response.status_code == 404
