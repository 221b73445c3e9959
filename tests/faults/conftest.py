"""A stack of its own for each fault test: Redis, Daphne and Celery workers that the test may kill and start
again on the same ports, and a signed-in user's API client. The scripted model server and the database are the
suite's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from knox.models import AuthToken

from tests.conftest import MainWorker, start_ready_worker
from tests.factories import UserFactory
from tests.support.llm_server import ScriptedLLM
from tests.support.processes import (
    Managed,
    free_port,
    service_env,
    start_daphne,
    start_redis,
    suite_database_url,
    wait_until,
)

TERMINAL = ("succeeded", "failed", "aborted")


@dataclass
class FaultStack:
    env: dict[str, str]
    redis_port: int
    redis: Managed
    daphne: Managed
    base_url: str
    workers: dict[str, Managed] = field(default_factory=dict)

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def restart_redis(self) -> float:
        """Start Redis again on its port (empty, as after a crash); the moment it is back."""
        self.redis, _ = start_redis(self.redis_port)
        return time.monotonic()

    def restart_daphne(self) -> float:
        port = int(self.base_url.rsplit(":", 1)[1])
        self.daphne, _ = start_daphne(self.env, port)
        return time.monotonic()

    def add_worker(self, name: str) -> Managed:
        self.workers[name] = start_ready_worker(name, self.env, self.redis_url)
        return self.workers[name]

    def stop(self) -> None:
        for worker in self.workers.values():
            worker.stop(timeout=30)
        self.daphne.stop()
        self.redis.stop()


class Api:
    """A script's view of Hive: the REST API with a personal token."""

    def __init__(self, base_url: str, token: str) -> None:
        self.client = httpx.Client(base_url=base_url, headers={"Authorization": f"Token {token}"}, timeout=15)

    def new_conversation(self) -> int:
        response = self.client.post("/api/conversations/", json={"title": "faults"})
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    def send(self, conversation_id: int, text: str) -> dict[str, Any]:
        response = self.client.post(f"/api/conversations/{conversation_id}/messages/", json={"content": text})
        assert response.status_code == 201, response.text
        return dict(response.json()["run"])

    def action(self, conversation_id: int, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(
            f"/api/conversations/{conversation_id}/actions/", json={"action": action, "arguments": arguments}
        )
        assert response.status_code == 202, response.text
        return dict(response.json())

    def tabs(self, conversation_id: int) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/conversations/{conversation_id}/tabs/")
        assert response.status_code == 200, response.text
        body = response.json()
        return list(body["tabs"] if isinstance(body, dict) else body)

    def run(self, run_id: int) -> dict[str, Any]:
        response = self.client.get(f"/api/runs/{run_id}/")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def messages(self, conversation_id: int) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/conversations/{conversation_id}/messages/")
        assert response.status_code == 200, response.text
        return list(response.json())

    def until_run(self, run_id: int, statuses: tuple[str, ...], timeout: float = 60) -> dict[str, Any]:
        seen: dict[str, Any] = {}

        def reached() -> bool:
            try:
                seen.update(self.run(run_id))
            except httpx.HTTPError:
                return False  # the web process is away: ask again
            return seen.get("status") in statuses

        try:
            wait_until(reached, timeout, f"run {run_id} to be {'/'.join(statuses)}", 0.1)
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; last seen: {seen.get('status')} {seen.get('error') or ''}") from None
        return seen


@pytest.fixture
def fault_stack(
    scripted_llm_server: ScriptedLLM, django_db_setup: None, main_worker: MainWorker
) -> Iterator[FaultStack]:
    # The suite's shared worker uses the same database with another Redis: its reaper would take this stack's
    # workers for dead ones. Only this stack's workers may run.
    main_worker.stop()

    redis_port = free_port()
    redis_server, redis_url = start_redis(redis_port)
    env = service_env(
        redis_url=redis_url,
        database_url=suite_database_url(),
        extra={
            "HIVE_LLM_BASE_URL": scripted_llm_server.base_url,
            "HIVE_LLM_MODEL": "scripted",
            # Runs whose message Redis lost are sent again after this long (60 s in production).
            "HIVE_QUEUED_RESEND_S": "3",
        },
    )
    daphne, base_url = start_daphne(env)
    stack = FaultStack(env=env, redis_port=redis_port, redis=redis_server, daphne=daphne, base_url=base_url)
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def script_api(fault_stack: FaultStack) -> Api:
    user = UserFactory()
    _, token = AuthToken.objects.create(user)
    return Api(fault_stack.base_url, token)
