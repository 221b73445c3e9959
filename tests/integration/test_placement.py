"""Two workers: a conversation's work goes to the worker holding its browser session, and when that worker
dies, another restores the session (cookies, storage, tabs) from its last save."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.conftest import start_ready_worker
from tests.factories import ConversationFactory
from tests.support.processes import Managed, service_env, start_redis, suite_database_url, wait_until
from tests.support.runs import act, observation
from webapp.core import placement
from webapp.runs.models import Run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def isolated_stack(django_db_setup: None, settings: Any, main_worker: Any) -> Iterator[dict[str, Any]]:
    """A Redis of its own, so only this test's two workers are alive for placement. The shared worker is
    stopped meanwhile: it shares the database, and its reaper would take these workers' runs for orphans."""
    from channels.layers import channel_layers

    from webapp.core import queue

    main_worker.stop()
    server, url = start_redis()
    settings.REDIS_URL = url
    settings.CELERY_BROKER_URL = url
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    hosts = [{**config["hosts"][0], "address": url}]
    settings.CHANNEL_LAYERS = {"default": {**settings.CHANNEL_LAYERS["default"], "CONFIG": {**config, "hosts": hosts}}}
    channel_layers.backends.clear()
    queue._producer = None
    env = service_env(redis_url=url, database_url=suite_database_url())
    workers = {name: start_ready_worker(name, env, url) for name in ("alpha", "beta")}
    yield {"workers": workers, "redis_url": url}
    for worker in workers.values():
        worker.stop()
    server.stop()
    channel_layers.backends.clear()
    queue._producer = None


def owner_of(run: Run, workers: dict[str, Managed]) -> str:
    return next(name for name in workers if run.worker_id.startswith(f"{name}@"))


def test_work_follows_the_session_and_survives_its_worker(isolated_stack: dict[str, Any], pages: str) -> None:
    workers: dict[str, Managed] = isolated_stack["workers"]
    conversation = ConversationFactory()
    client = APIClient()
    client.force_login(conversation.owner)

    first = act(client, conversation.pk, "navigate", url=f"{pages}/remember.html?name=ada")
    assert first.status == "succeeded", first.error
    home = owner_of(first, workers)
    assert placement.session_home(conversation.pk) == first.worker_id

    second = act(client, conversation.pk, "list_tabs")
    assert second.worker_id == first.worker_id, "the second action should go to the worker holding the session"
    assert second.queue == placement.worker_queue(first.worker_id)
    assert "remember.html" in json.dumps(observation(second))

    workers[home].kill()
    third = act(
        client,
        conversation.pk,
        "execute_js",
        code="document.cookie + ' | ' + localStorage.getItem('visitor') + ' | ' + location.pathname",
    )
    assert third.status == "succeeded", third.error
    survivor = owner_of(third, workers)
    assert survivor != home
    result = json.dumps(observation(third))
    assert "visitor=ada" in result
    assert "| ada |" in result
    assert "/remember.html" in result


def _chromium_pids(worker: Managed) -> list[int]:
    """Chromium's processes among the worker's descendants (Playwright starts it in a group of its own)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    descendants: set[int] = set()
    frontier = {worker.pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - descendants
        descendants |= frontier
    return [pid for pid in descendants if "chromium" in commands.get(pid, "")]


def test_a_browser_crash_fails_the_run_in_flight_and_the_next_action_works(
    isolated_stack: dict[str, Any], pages: str
) -> None:
    workers: dict[str, Managed] = isolated_stack["workers"]
    conversation = ConversationFactory()
    client = APIClient()
    client.force_login(conversation.owner)
    first = act(client, conversation.pk, "navigate", url=f"{pages}/remember.html?name=bo")
    worker = workers[owner_of(first, workers)]

    response = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "execute_js", "arguments": {"code": "new Promise(r => setTimeout(r, 8000))"}},
        format="json",
    )
    run = Run.objects.get(pk=response.json()["id"])

    def running() -> bool:
        run.refresh_from_db()
        return run.status == "running"

    wait_until(running, 20, "the wait to start")
    pids = _chromium_pids(worker)
    assert pids, "the worker should run Chromium"
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    def ended() -> bool:
        run.refresh_from_db()
        return not run.is_active

    wait_until(ended, 30, "the run to end")
    assert run.status == "failed"
    assert "browser" in run.error.lower()

    after = act(client, conversation.pk, "execute_js", code="localStorage.getItem('visitor')")
    assert after.status == "succeeded", after.error
    assert "bo" in json.dumps(observation(after))
