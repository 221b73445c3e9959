"""Helpers for the worker's in-process tests: runs as a worker holds them, and reading them back."""

from __future__ import annotations

import os
from typing import Any

from channels.db import database_sync_to_async

from webapp.conversations.models import Conversation
from webapp.runs.models import Run, Step
from workers.sink import WorkerSink

# The worker id of the runs this process holds (tests/workers/conftest.py keeps it alive).
IN_PROCESS_WORKER = f"in-process-tests:{os.getpid()}"


async def running(conversation: Conversation, kind: str, **metadata: Any) -> tuple[Run, WorkerSink]:
    """A run as a worker holds it once claimed, and the sink that records its steps."""
    run = await database_sync_to_async(Run.objects.create)(
        conversation=conversation,
        started_by_id=conversation.owner_id,
        kind=kind,
        status=Run.Status.RUNNING,
        worker_id=IN_PROCESS_WORKER,
        metadata=metadata,
    )
    return run, WorkerSink(run_id=run.pk, conversation_id=conversation.pk)


async def reread(run: Run) -> Run:
    return await database_sync_to_async(Run.objects.prefetch_related("steps").get)(pk=run.pk)


async def steps_of(run: Run) -> list[Step]:
    return await database_sync_to_async(lambda: list(run.steps.order_by("index")))()
