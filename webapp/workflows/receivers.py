"""The workflows app's part in a run's end: a replay's webhook."""

from __future__ import annotations

from typing import Any

from webapp.runs.models import Run
from webapp.workflows.webhooks import delivery_schedule


def on_run_finished(sender: Any, run: Run, **kwargs: Any) -> None:
    if run.kind == Run.Kind.WORKFLOW:
        delivery_schedule(run=run)
