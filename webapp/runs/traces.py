"""Runs kept as Playwright traces: which runs keep theirs, storing one, and pruning old ones (docs/traces.md).

A workflow replay keeps its trace, and so does an agent turn that fails; other runs keep theirs when their
conversation asks for it (`trace_runs`). Every turn and replay is traced while it runs, so a failure has its trace
whatever the switch says; the chunk of a run that does not keep it is discarded. An action or a tool call by hand is
traced only when the switch is on: it is one step whose result, error and picture are kept anyway, and tracing it
would add about half to its CPU.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction

from webapp.core.events import publish_on_commit
from webapp.runs.models import Run
from webapp.runs.serializers import run_shape

log = logging.getLogger(__name__)

TRACE_NAME = "trace.zip"

Decision = Literal["keep", "discard", "undecided"]


def run_traced(run: Run) -> bool:
    """Whether the run is traced while it runs (`run.conversation` loaded with it)."""
    return run.kind in Run.WORK_KINDS or run.conversation.trace_runs


def run_trace_decision(*, run_id: int, ending: str | None = None) -> Decision:
    """Whether the run's trace is kept, as far as can be told now: a run still active may yet fail. `ending`: the
    status the run is about to end with, decided on as if it were recorded."""
    run = Run.objects.select_related("conversation").only("kind", "status", "conversation__trace_runs").get(pk=run_id)
    status = ending if ending and run.is_active else run.status  # an ending already recorded stands
    if run.kind == Run.Kind.WORKFLOW or run.conversation.trace_runs or status == Run.Status.FAILED:
        return "keep"
    if ending is None and run.is_active:
        return "undecided"
    return "discard"


@transaction.atomic
def run_trace_store(*, run_id: int, path: Path) -> Run:
    """Keep the (already masked) trace at `path` as the run's, and tell the dashboard it has one."""
    run = Run.objects.select_for_update().get(pk=run_id)
    old = str(run.trace.name) if run.trace else ""
    with path.open("rb") as source:
        run.trace.save(f"run-{run.pk}-{TRACE_NAME}", File(source), save=False)
    run.save(update_fields=["trace"])
    if old:
        transaction.on_commit(lambda: default_storage.delete(old))
    publish_on_commit(run.conversation_id, {"type": "run.updated", "run": run_shape(run)})
    return run
