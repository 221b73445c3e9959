"""`make run`'s supervisor: a process that dies is started again, and the log says so; stopping the supervisor
stops every process it started; a worker it stops saves its browsers before they close."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.faults.conftest import TERMINAL, Api
from tests.support.network_guard import subprocess_env
from tests.support.processes import ROOT, Managed, free_port, wait_until
from tests.support.static_server import serve_directory

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]


def _ctl(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "supervisorctl"), "-c", str(ROOT / "supervisord.conf"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout


@pytest.fixture
def supervised(tmp_path: Path) -> Iterator[tuple[Managed, dict[str, str], str]]:
    port, redis_port = free_port(), free_port()
    env = {
        **os.environ,
        **subprocess_env(),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "webapp.settings.test",
        "HIVE_TEST_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "HIVE_MEDIA_ROOT": str(tmp_path / "media"),
        "HIVE_VAR": str(tmp_path),
        "HIVE_PORT": str(port),
        "HIVE_BIND": "127.0.0.1",
        "HIVE_REDIS_PORT": str(redis_port),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "WORKER_CONCURRENCY": "1",
        "HIVE_POOL_WARM_CONTEXTS": "0",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    supervisor = Managed(
        f"supervisord-{port}", [str(Path(sys.executable).parent / "supervisord"), "-c", "supervisord.conf"], env
    )
    try:
        yield supervisor, env, f"http://127.0.0.1:{port}"
    finally:
        supervisor.stop(timeout=90)


def _ready(env: dict[str, str], base: str) -> bool:
    try:
        checks = httpx.get(f"{base}/readyz", timeout=2).json().get("checks", {})
    except (httpx.HTTPError, ValueError):
        return False
    return bool(checks.get("workers", {}).get("alive")) and _pid(env, "worker") > 0


def _token(env: dict[str, str]) -> str:
    """A user of the supervised stack's own database, and their personal token."""
    code = (
        "from django.contrib.auth import get_user_model; from knox.models import AuthToken; "
        "user = get_user_model().objects.create_user('ada', password='a long passphrase'); "
        "print(AuthToken.objects.create(user)[1])"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def _saved(folder: Path, conversation_id: int) -> bool:
    """Whether the conversation's browser was saved, as the supervised stack's database holds it."""
    with contextlib.closing(sqlite3.connect(folder / "db.sqlite3")) as db:
        row = db.execute(
            "SELECT saved_at FROM conversations_browsersession WHERE conversation_id = ?", (conversation_id,)
        ).fetchone()
    return row is not None and row[0] is not None


def _pid(env: dict[str, str], program: str) -> int:
    text = _ctl(env, "pid", program).strip()
    return int(text) if text.isdigit() else 0


def test_a_process_that_dies_is_started_again_and_the_log_says_so(
    supervised: tuple[Managed, dict[str, str], str],
) -> None:
    supervisor, env, base = supervised

    def ready() -> bool:
        try:
            return httpx.get(f"{base}/healthz", timeout=2).status_code == 200 and _pid(env, "worker") > 0
        except httpx.HTTPError:
            return False

    wait_until(ready, 90, "the supervised stack", interval=0.5)
    pids = {program: _pid(env, program) for program in ("redis", "web", "worker", "beat")}
    assert all(pids.values()), pids

    os.kill(pids["worker"], signal.SIGKILL)
    wait_until(lambda: _pid(env, "worker") not in (0, pids["worker"]), 60, "the worker to be started again", 0.5)
    wait_until(lambda: "exited: worker" in supervisor.log_tail(400), 10, "the log to say so", 0.2)
    log = supervisor.log_tail(400)
    assert "spawned: 'worker'" in log
    assert "not expected" in log, "the log says the exit was a crash"
    assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200, "the rest kept running"

    restarted = _pid(env, "worker")
    supervisor.stop(timeout=90)
    alive = []
    for pid in [*pids.values(), restarted]:
        try:
            os.kill(pid, 0)
            alive.append(pid)
        except ProcessLookupError:
            pass
    assert not alive, f"processes left behind: {alive}"


def test_a_worker_the_supervisor_stops_saves_its_browsers_before_they_close(
    supervised: tuple[Managed, dict[str, str], str], tmp_path: Path
) -> None:
    _, env, base = supervised
    wait_until(lambda: _ready(env, base), 90, "the supervised stack", interval=0.5)
    api = Api(base, _token(env))
    site = tmp_path / "site"
    site.mkdir()
    # The page changes its storage on its own, once told to (go.txt is there): after the action's run has ended and
    # the browser was saved.
    (site / "note.html").write_text(
        "<p>writing</p><script>const waiting = setInterval(async () => {"
        " if (!(await fetch('go.txt')).ok) return; clearInterval(waiting);"
        " localStorage.setItem('note', 'kept'); location.href = 'written.html'; }, 100)</script>"
    )
    (site / "written.html").write_text("<p>written</p>")
    (site / "read.html").write_text("<script>document.title = 'note ' + localStorage.getItem('note')</script>")

    with serve_directory(site) as url:
        conversation = api.new_conversation()
        opened = api.action(conversation, "navigate", {"url": f"{url}/note.html"})
        assert api.until_run(opened["id"], TERMINAL)["status"] == "succeeded"
        wait_until(lambda: _saved(tmp_path, conversation), 30, "the browser's save after the action")
        (site / "go.txt").write_text("go")
        wait_until(
            lambda: [tab["url"] for tab in api.tabs(conversation)] == [f"{url}/written.html"],
            30,
            "the page's own write",
        )

        _ctl(env, "stop", "worker")  # as `make run` stopping or restarting it
        _ctl(env, "start", "worker")
        wait_until(lambda: _ready(env, base), 90, "the worker started again", interval=0.5)

        read = api.action(conversation, "navigate", {"url": f"{url}/read.html"})
        assert api.until_run(read["id"], TERMINAL)["status"] == "succeeded"
        # The browser came back from the save its worker made while stopping, not from the one after the action.
        assert [tab["title"] for tab in api.tabs(conversation)] == ["note kept"]
