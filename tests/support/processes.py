"""Start and stop the real servers the integration tests need: redis-server, Celery workers, Daphne."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import redis

from tests.support.network_guard import subprocess_env

ROOT = Path(__file__).resolve().parents[2]
LOG_DIR = Path(tempfile.gettempdir()) / "hive-test-logs"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(predicate: Callable[[], bool], timeout: float, what: str, interval: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


class Managed:
    """A child process in its own process group, always killed with its children on stop()."""

    def __init__(self, name: str, args: list[str], env: dict[str, str]) -> None:
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.log_path = LOG_DIR / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """Like a crash: SIGKILL the whole group, no clean-up."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 15.0) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        # Children (e.g. Chromium) that outlived their parent still belong to the group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self._log.close()


def start_redis(port: int | None = None) -> tuple[Managed, str]:
    """A throw-away redis-server (no persistence: a restart loses everything, as a crash of a cache would)."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = port or free_port()
    server = Managed(
        f"redis-{port}",
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
        dict(os.environ),
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)

    def ready() -> bool:
        try:
            return bool(client.ping())
        except redis.ConnectionError:
            return False

    wait_until(ready, 10, "redis-server")
    client.close()
    return server, url


def suite_database_url() -> str:
    """The test database the pytest process uses now (after pytest-django made it), as a URL for its servers."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    credentials = quote(str(db["USER"]), safe="") + (
        ":" + quote(str(db["PASSWORD"]), safe="") if db["PASSWORD"] else ""
    )
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT']}/{quote(str(db['NAME']), safe='')}"


def service_env(*, redis_url: str, database_url: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    # Nothing of a real model service, and no cache of the developer's: the servers count in the suite's Redis.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HIVE_LLM_", "OPENAI_")) and k != "HIVE_CACHE_URL"}
    env.update(subprocess_env())
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "webapp.settings.test",
            "REDIS_URL": redis_url,
            "HIVE_TEST_DATABASE_URL": database_url,
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


def start_worker(name: str, env: dict[str, str], *, queues: str = "hive", concurrency: int | None = 2) -> Managed:
    """A Celery worker as `make run` starts one; `concurrency=None` leaves the thread count to the settings."""
    args = [
        sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
        "--pool", "threads", "-n", f"{name}@%h", "-Q", queues,
        "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
    ]  # fmt: skip
    if concurrency is not None:
        args += ["-c", str(concurrency)]
    return Managed(f"worker-{name}", args, env)


def start_daphne(env: dict[str, str], port: int | None = None) -> tuple[Managed, str]:
    port = port or free_port()
    args = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "webapp.asgi:application"]
    server = Managed(f"daphne-{port}", args, env)

    def ready() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    try:
        wait_until(ready, 30, "daphne")
    except TimeoutError:
        server.stop()
        raise TimeoutError(f"daphne did not start:\n{server.log_tail()}") from None
    return server, f"http://127.0.0.1:{port}"
