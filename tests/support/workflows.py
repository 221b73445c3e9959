"""Workflows written by hand for tests: steps as an owner could write them, aimed by name and role (no recorded
selector), so a replay has to find each element again; and replaying one through the API until its run ends."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.support.processes import wait_until
from webapp.runs.models import Run
from webapp.workflows.models import Workflow, WorkflowVersion
from webapp.workflows.steps import Parameter


def step(
    action: str, intent: str, *, tag: str = "", role: str = "", name: str = "", **arguments: Any
) -> dict[str, Any]:
    """One step; `attributes` (a dict) among the keywords goes to the target, everything else is an argument."""
    attributes = arguments.pop("attributes", {})
    target = {"tag": tag, "role": role, "name": name, "attributes": attributes} if tag else {}
    return {"action": action, "arguments": arguments, "target": target, "intent": intent}


def parameter(name: str, label: str, default: str = "", *, secret: bool = False) -> Parameter:
    return {"name": name, "type": "secret" if secret else "string", "default": default, "label": label}


def workflow_with(owner: Any, name: str, steps: list[dict[str, Any]], parameters: list[Parameter] | None = None) -> int:
    workflow = Workflow.objects.create(owner=owner, name=name)
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=parameters or [])
    return workflow.pk


def ended(run_id: int, seconds: float = 60) -> Run:
    """The run once it is no longer queued, running or waiting."""
    wait_until(lambda: not Run.objects.get(pk=run_id).is_active, seconds, "the run to end")
    return Run.objects.get(pk=run_id)


def replay(client: APIClient, workflow_id: int, **parameters: str) -> Run:
    """Start a replay with these parameters (a 202) and wait for it to end."""
    started = client.post(f"/api/workflows/{workflow_id}/runs/", {"parameters": parameters}, format="json")
    assert started.status_code == 202, started.content
    return ended(started.json()["id"])
