"""Start the whole service for a benchmark: Redis, a migrated database (SQLite, or a PostgreSQL server of its own),
Celery worker(s), Daphne (and beat).

Everything runs on this machine's loopback and is stopped when the `with` block ends. By default the services run
with the test settings (1 s heartbeats, loopback open in the firewall); `settings="local"` runs them as `make run`
does, with the production periods, and only loopback allowed through the firewall.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support.postgres import PostgresServer  # noqa: E402
from tests.support.processes import Managed, service_env, start_daphne, start_redis, start_worker, wait_until  # noqa: E402

LOCAL_SETTINGS = "webapp.settings.local"


@dataclass
class Stack:
    base_url: str
    redis_url: str
    env: dict[str, str]
    workers: list[Managed] = field(default_factory=list)
    # Every process of the service by role (redis, worker0, daphne, beat), for figures per process.
    processes: dict[str, Managed] = field(default_factory=dict)
    database_pid: int | None = None  # PostgreSQL's postmaster, whose children serve the connections

    def roots(self) -> dict[str, int]:
        """The root process of every part of the service by role, the database server's included."""
        roots = {role: process.pid for role, process in self.processes.items()}
        if self.database_pid is not None:
            roots["postgres"] = self.database_pid
        return roots


def _has_workers(redis_url: str, count: int) -> bool:
    client = redis.Redis.from_url(redis_url)
    try:
        return sum(1 for _ in client.scan_iter(match="hive:worker:*")) >= count
    finally:
        client.close()


@contextmanager
def running_stack(
    *,
    workers: int = 1,
    extra_env: dict[str, str] | None = None,
    concurrency: int | None = None,
    settings: str = "test",
    beat: bool = False,
    database: str = "sqlite",
) -> Iterator[Stack]:
    """`database="postgres"`: a PostgreSQL server of the stack's own (as operators deploy), else a SQLite file."""
    # The stack's database and media go with it: every smoke run in the suite starts a stack.
    with tempfile.TemporaryDirectory(prefix="hive-bench-", ignore_cleanup_errors=True) as folder:
        tmp = Path(folder)
        postgres: PostgresServer | None = None
        if database == "postgres":
            postgres = PostgresServer()
            postgres.start()
            database_url = postgres.url
        else:
            database_url = f"sqlite:///{tmp / 'bench.sqlite3'}"
        try:
            redis_server, redis_url = start_redis()
        except BaseException:
            if postgres is not None:
                postgres.stop()
            raise
        own: dict[str, str] = {"HIVE_MEDIA_ROOT": str(tmp / "media")}
        if settings == "local":
            own |= {
                "DJANGO_SETTINGS_MODULE": LOCAL_SETTINGS,
                "DATABASE_URL": database_url,
                "HIVE_VAR": str(tmp),
                "HIVE_EGRESS_ALLOW": "127.0.0.1",
            }
        env = service_env(redis_url=redis_url, database_url=database_url, extra={**own, **(extra_env or {})})
        started: list[Managed] = [redis_server]
        processes = {"redis": redis_server}
        try:
            if postgres is None:
                _migrated_sqlite(tmp / "bench.sqlite3", env)
            else:
                _migrate(env)
            stack_workers = []
            for n in range(workers):
                worker = start_worker(f"bench{n}", env, concurrency=concurrency)
                started.append(worker)
                stack_workers.append(worker)
                processes[f"worker{n}"] = worker
            # The web server starts while the workers do: neither waits on the other.
            daphne, base_url = _daphne(env)
            started.append(daphne)
            processes["daphne"] = daphne
            wait_until(partial(_has_workers, redis_url, workers), 60 + 30 * workers, f"{workers} worker(s)")
            if beat:
                scheduler = Managed(
                    "beat", [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "-l", "info",
                             "-s", str(tmp / "beat-schedule")], env
                )  # fmt: skip
                started.append(scheduler)
                processes["beat"] = scheduler
            yield Stack(
                base_url=base_url, redis_url=redis_url, env=env, workers=stack_workers, processes=processes,
                database_pid=postgres.pid if postgres is not None else None,
            )  # fmt: skip
        finally:
            for process in reversed(started):
                process.stop()
            if postgres is not None:
                postgres.stop()


def _migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def _migrated_sqlite(path: Path, env: dict[str, str]) -> None:
    """A copy of a SQLite database migrated once for these migrations (and the data they load), installed packages
    and settings: migrating a new file takes about ten seconds, a copy a few milliseconds."""
    key = hashlib.sha256(env.get("DJANGO_SETTINGS_MODULE", "").encode())
    for migration in sorted([*ROOT.glob("webapp/*/migrations/*.py"), *ROOT.glob("webapp/*/shipped/*")]):
        key.update(migration.relative_to(ROOT).as_posix().encode() + migration.read_bytes())
    key.update(" ".join(sorted(p.name for p in Path(sysconfig.get_paths()["purelib"]).glob("*.dist-info"))).encode())
    template = Path(tempfile.gettempdir()) / f"hive-bench-migrated-{key.hexdigest()[:20]}.sqlite3"
    if not template.exists():
        _migrate(env)
        # Written beside and renamed: two benchmarks starting at once never copy a half-written template.
        partial_copy = template.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(path, partial_copy)
        os.replace(partial_copy, template)
        return
    shutil.copyfile(template, path)


def _daphne(env: dict[str, str], attempts: int = 3) -> tuple[Managed, str]:
    """Daphne, started again when a machine busy with other work makes it miss the helper's 30 s wait."""
    for attempt in range(attempts):
        try:
            return start_daphne(env)
        except TimeoutError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def signed_in_client(base_url: str, username: str) -> tuple[httpx.Client, dict[str, str]]:
    """An httpx client signed up and in, with the headers for unsafe requests and the websocket cookie."""
    client = httpx.Client(base_url=base_url, timeout=60)
    client.get("/api/auth/csrf/")
    token = client.cookies["csrftoken"]
    headers = {"X-CSRFToken": token, "Referer": base_url + "/"}
    response = client.post(
        "/api/auth/signup/", json={"username": username, "password": "bench-passphrase-1"}, headers=headers
    )
    response.raise_for_status()
    headers = {"X-CSRFToken": client.cookies["csrftoken"], "Referer": base_url + "/"}
    return client, headers


def cookie_header(client: object) -> str:
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())  # type: ignore[attr-defined]
