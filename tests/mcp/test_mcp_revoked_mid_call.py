"""A teammate whose share is taken back while their MCP task runs in the owner's conversation gets nothing of what
the agent found there after the revocation: the call is refused once its run ends. The MCP server's own `_run_task`
is driven with a stand-in of the request context `call_tool` passes; the test plays the worker (it writes the
agent's reply and ends the run)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.factories import ConversationFactory, UserFactory
from webapp.conversations.services import message_create
from webapp.mcp_server import server
from webapp.runs.models import Run
from webapp.runs.services import run_finish
from webapp.sharing.models import Share
from webapp.sharing.selectors import conversation_access
from webapp.sharing.services import share_revoke

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FOUND_AFTER_REVOKE = "Balance on the owner's account: 48,213.07 EUR (read after your access ended)"


class _Session:
    async def report_progress(self, *args: Any, **kwargs: Any) -> None:
        return None


def _context(user: Any) -> Any:
    return SimpleNamespace(request=SimpleNamespace(scope={"hive_user": user, "headers": []}), session=_Session())


def _world() -> tuple[Any, Any, Any]:
    owner, teammate = UserFactory(), UserFactory()
    conversation = ConversationFactory(owner=owner)
    share = Share.objects.create(conversation=conversation, user=teammate, role="controller", created_by=owner)
    return teammate, conversation, share


def _the_worker_answers(run_id: int, conversation_id: int) -> None:
    message_create(conversation_id=conversation_id, role="assistant", content=FOUND_AFTER_REVOKE, run_id=run_id)
    run_finish(run_id=run_id, status=Run.Status.SUCCEEDED)


async def test_a_revoked_teammates_mcp_task_gets_no_answer_from_the_owners_conversation() -> None:
    teammate, conversation, share = await sync_to_async(_world)()
    task = asyncio.create_task(server._run_task(_context(teammate), conversation, {"task": "read the balance"}))

    run = None
    for _ in range(100):
        run = await sync_to_async(Run.objects.filter(conversation=conversation).first)()
        if run is not None:
            break
        await asyncio.sleep(0.05)
    assert run is not None, "the task's run was not made"

    await sync_to_async(share_revoke)(share=share)
    assert await sync_to_async(conversation_access)(user=teammate, conversation_id=conversation.pk) is None
    await sync_to_async(_the_worker_answers)(run.pk, conversation.pk)

    with pytest.raises(server.Refusal, match="access to this conversation ended"):
        await asyncio.wait_for(task, 30)
