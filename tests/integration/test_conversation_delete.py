"""Deleting a conversation ends everything that was live about it: teammates' sockets close at once (4403), the
worker holding its browser is told to drop the session unsaved, and its files (screenshots, recordings, uploads) are
removed."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from browser_pool.recording import RecordedFrame
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import open_stream
from webapp.conversations.models import ConversationFile
from webapp.core.events import session_group
from webapp.runs.models import Run, Step
from webapp.runs.recordings import recording_save
from webapp.sharing.models import Share

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _setup() -> tuple[int, object, object, list[str]]:
    conversation = ConversationFactory()
    mate = UserFactory(username="mate")
    Share.objects.create(conversation=conversation, user=mate, role="viewer", created_by=conversation.owner)
    run = Run.objects.create(conversation=conversation, status="succeeded")
    step = Step.objects.create(run=run, index=0, kind="action", action="navigate", status="succeeded")
    step.screenshot.save("shot.jpg", ContentFile(b"\xff\xd8\xff\xd9"), save=True)
    upload = ConversationFile(conversation=conversation, name="cv.pdf", size=3)
    upload.file.save("cv.pdf", ContentFile(b"pdf"), save=True)
    run.trace.save("trace.zip", ContentFile(b"PK\x05\x06" + b"\0" * 18), save=True)
    recording = recording_save(run_id=run.pk, frames=[RecordedFrame(b"\xff\xd8\xff\xd9", 1, 1, 1_700_000_000_000)])
    files = [str(step.screenshot.name), str(upload.file.name), str(run.trace.name), str(recording.file.name)]
    return conversation.pk, conversation.owner, mate, files


def _delete(owner: object, conversation_id: int) -> int:
    client = APIClient()
    client.force_login(owner)  # type: ignore[arg-type]
    return client.delete(f"/api/conversations/{conversation_id}/").status_code


async def test_deleting_closes_sockets_drops_the_session_and_removes_files() -> None:
    conversation_id, owner, mate, files = await sync_to_async(_setup)()
    assert all(default_storage.exists(name) for name in files)
    layer = get_channel_layer()
    worker_channel = await layer.new_channel()
    await layer.group_add(session_group(conversation_id), worker_channel)  # stands in for the worker holding it
    connected, _, stream = await open_stream(mate, conversation_id)
    assert connected
    await stream.until(lambda e: e["type"] == "hello")

    assert await sync_to_async(_delete)(owner, conversation_id) == 204

    closed = await stream.communicator.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await stream.communicator.receive_output(timeout=5)
    assert closed["code"] == 4403
    command = await layer.receive(worker_channel)
    while command["command"]["type"] != "session.discard":
        command = await layer.receive(worker_channel)
    assert command["command"]["conversation_id"] == conversation_id
    assert not any(default_storage.exists(name) for name in files)
