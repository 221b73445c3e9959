"""`make run` as an operator starts it: each start-log line once, no warning about static files, and a second stack
of the same checkout on other ports running beside the first with state of its own; a port already taken is named
with the variable that moves it, before anything starts."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.network_guard import subprocess_env
from tests.support.processes import ROOT, Managed, free_port, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(600)]

# supervisord's own lines: "2026-11-26 14:58:53,578 INFO spawned: 'web' with pid 3183".
SUPERVISOR_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ")


def _operator_env() -> dict[str, str]:
    """The environment of someone typing `make run`: nothing of the test run's own settings or make's."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("HIVE_", "DJANGO_", "DATABASE_URL", "REDIS_URL", "MAKE", "MFLAGS"))
    }
    return {**env, **subprocess_env(), "HIVE_POOL_WARM_CONTEXTS": "0"}


def _ports() -> tuple[int, int]:
    """Free ports other than 8000, whose stack keeps its state in var/ itself."""
    while True:
        port, redis_port = free_port(), free_port()
        if 8000 not in (port, redis_port) and port != redis_port:
            return port, redis_port


@dataclass
class Stack:
    process: Managed
    port: int

    @property
    def state(self) -> Path:
        return ROOT / "var" / str(self.port)

    def readiness(self) -> dict[str, Any]:
        try:
            return dict(httpx.get(f"http://127.0.0.1:{self.port}/readyz", timeout=5).json())
        except (httpx.HTTPError, ValueError):
            return {}

    def ready(self) -> bool:
        return bool(self.readiness().get("ready"))


@pytest.fixture
def make_run() -> Iterator[Callable[[], Stack]]:
    started: list[Stack] = []

    def start() -> Stack:
        port, redis_port = _ports()
        args = ["make", "--no-print-directory", "run", f"PORT={port}", f"REDIS_PORT={redis_port}"]
        stack = Stack(Managed(f"make-run-{port}", [*args, "WORKER_CONCURRENCY=1"], _operator_env()), port)
        started.append(stack)
        try:
            wait_until(lambda: stack.ready() or not stack.process.alive(), 240, f"make run on port {port}", 1.0)
        except TimeoutError:
            raise TimeoutError(f"make run on port {port} did not get ready:\n{stack.process.log_tail()}") from None
        assert stack.process.alive(), stack.process.log_tail()
        return stack

    yield start
    for stack in reversed(started):
        stack.process.stop(timeout=90)
        shutil.rmtree(stack.state, ignore_errors=True)


def test_a_second_stack_of_one_checkout_runs_beside_the_first_and_each_logs_every_line_once(
    make_run: Callable[[], Stack],
) -> None:
    first = make_run()
    second = make_run()

    for stack in (first, second):
        # Each sees one worker: its own, in its own Redis.
        assert stack.readiness()["checks"]["workers"]["alive"] == 1, stack.readiness()
        assert (stack.state / "supervisor.sock").exists()
        assert (stack.state / "hive.sqlite3").exists(), "each stack has a database of its own"
        log = stack.process.log_path.read_text(errors="replace")
        own_lines = [line for line in log.splitlines() if SUPERVISOR_LINE.match(line)]
        assert any("spawned: 'web'" in line for line in own_lines), log[-3000:]
        repeated = {line for line in own_lines if own_lines.count(line) > 1}
        assert not repeated, f"printed more than once: {sorted(repeated)[:5]}"
        assert "No directory at" not in log, "whitenoise found no collected static files"
        assert "UserWarning" not in log, log[-3000:]
        assert (stack.state / "supervisord.log").read_text().count("spawned: 'web'") == 1


def test_a_port_in_use_is_named_with_the_variable_that_moves_it_and_nothing_starts() -> None:
    port, redis_port = _ports()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", redis_port))
        taken.listen()
        done = subprocess.run(
            ["make", "--no-print-directory", "run", f"PORT={port}", f"REDIS_PORT={redis_port}"],
            cwd=ROOT,
            env=_operator_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert done.returncode != 0
    assert f"already in use (by another Hive, or another program): REDIS_PORT={redis_port}" in done.stdout
    assert f"make run PORT={port} REDIS_PORT={redis_port + 1}" in done.stdout
    assert not (ROOT / "var" / str(port)).exists(), "nothing was set up for a stack that cannot start"
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0, "no web server was started"
