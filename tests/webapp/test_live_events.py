"""Live events on the real channel layer (Redis), as a dashboard's socket gets them: a service called by a request
in the web process sends its event through the default publisher once its transaction commits, and an event of a
transaction that rolls back reaches nobody, whichever process's publisher carries it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from webapp.conversations.models import Conversation
from webapp.conversations.services import conversation_update
from webapp.core.events import Event, conversation_group, publishing_through
from webapp.runs.models import Run, Step
from workers.live import Outbox
from workers.sink import WorkerSink

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Watcher:
    """A channel in the conversation's group, as a dashboard socket's consumer is."""

    def __init__(self, conversation_id: int) -> None:
        self.group = conversation_group(conversation_id)
        self.layer = get_channel_layer()
        self.channel = ""

    async def next_event(self) -> Event:
        async with asyncio.timeout(10):
            message = await self.layer.receive(self.channel)
        event: Event = message["event"]
        return event


@pytest_asyncio.fixture
async def conversation() -> Conversation:
    made: Conversation = await database_sync_to_async(ConversationFactory)()
    return made


@pytest_asyncio.fixture
async def watcher(conversation: Conversation) -> AsyncIterator[Watcher]:
    watching = Watcher(conversation.pk)
    watching.channel = await watching.layer.new_channel()
    await watching.layer.group_add(watching.group, watching.channel)
    yield watching
    await watching.layer.group_discard(watching.group, watching.channel)


async def test_a_service_called_by_a_request_reaches_the_conversations_sockets(
    conversation: Conversation, watcher: Watcher
) -> None:
    def rename() -> int:
        client = APIClient()
        client.force_login(conversation.owner)
        response = client.patch(f"/api/conversations/{conversation.pk}/", {"title": "Flights to Oslo"}, format="json")
        return int(response.status_code)

    assert await sync_to_async(rename)() == 200
    event = await watcher.next_event()
    assert event["type"] == "conversation.updated"
    assert event["conversation"]["title"] == "Flights to Oslo"


class _Undone(Exception):
    pass


@pytest.mark.parametrize("process", ["web", "worker"])
async def test_an_event_of_a_transaction_that_rolls_back_is_never_sent(
    conversation: Conversation, watcher: Watcher, process: str
) -> None:
    def rename_then_undo_then_rename() -> None:
        with contextlib.suppress(_Undone), transaction.atomic():
            conversation_update(conversation=conversation, title="Never seen")
            raise _Undone
        conversation_update(conversation=conversation, title="Kept")

    outbox = Outbox(asyncio.get_running_loop())
    sender = asyncio.create_task(outbox.send_forever())
    try:
        # The worker's services run on a database thread with its outbox as their publisher; the web's with none set.
        with publishing_through(outbox) if process == "worker" else contextlib.nullcontext():
            await database_sync_to_async(rename_then_undo_then_rename)()
        # Updates reach a socket in the order they were sent: had the first been sent, it would come first.
        event = await watcher.next_event()
    finally:
        sender.cancel()
    assert event["type"] == "conversation.updated"
    assert event["conversation"]["title"] == "Kept"


async def test_a_notice_reaches_the_sockets_whole_in_one_event(conversation: Conversation, watcher: Watcher) -> None:
    run = await database_sync_to_async(Run.objects.create)(conversation=conversation, status=Run.Status.RUNNING)
    sink = WorkerSink(run_id=run.pk, conversation_id=conversation.pk)

    await sink.notify("Paused: ada has taken over the browser.")

    event = await watcher.next_event()
    assert event["type"] == "step.created"
    assert event["step"]["action"] == "notice"
    assert event["step"]["status"] == "succeeded"
    assert event["step"]["observation"] == "Paused: ada has taken over the browser."
    stored = await database_sync_to_async(lambda: list(Step.objects.filter(run=run).values_list("observation")))()
    assert stored == [("Paused: ada has taken over the browser.",)]
