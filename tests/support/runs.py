"""Run a browser action through the API and wait for its run to end (integration tests with a live worker)."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.test import APIClient

from tests.support.processes import wait_until
from webapp.runs.models import Run


def act(client: APIClient, conversation_id: int, action: str, **arguments: Any) -> Run:
    response = client.post(
        f"/api/conversations/{conversation_id}/actions/", {"action": action, "arguments": arguments}, format="json"
    )
    assert response.status_code == 202, response.content
    run = Run.objects.get(pk=response.json()["id"])

    def ended() -> bool:
        run.refresh_from_db()
        return not run.is_active

    wait_until(ended, 45, f"the {action} action to finish")
    return run


def observation(run: Run) -> dict[str, Any]:
    return json.loads(run.steps.get().observation)
