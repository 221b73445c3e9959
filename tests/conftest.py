"""Shared fixtures: real Redis, the scripted model server, real Celery workers and Daphne.

Django is imported inside the fixtures that need it, so the plain-library suites (browser_pool, agents)
also run without Django configured.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.contrib.auth.models import User
from django.test.signals import setting_changed  # its module holds Django's own receivers

from tests.support import network_guard
from tests.support.llm_server import ScriptedLLM
from tests.support.postgres import PostgresServer
from tests.support.processes import (
    Managed,
    service_env,
    start_daphne,
    start_redis,
    start_worker,
    suite_database_url,
    wait_until,
)
from webapp.conversations.models import Conversation
from webapp.settings.cache import redis_next_database
from webapp.settings.database import database_config


@pytest.fixture(autouse=True)
def _no_real_model_calls() -> Iterator[None]:
    network_guard.violations.clear()
    yield
    assert not network_guard.violations, f"a test tried to leave this machine: {network_guard.violations}"


@pytest.fixture(scope="session", autouse=True)
def redis_url() -> Iterator[str]:
    server, url = start_redis()
    os.environ["REDIS_URL"] = url
    from django.conf import settings

    if not settings.configured:
        yield url
        server.stop()
        return
    settings.REDIS_URL = url
    settings.CELERY_BROKER_URL = url
    # The rate limits' counters, in the suite's Redis as the servers the tests start keep theirs.
    settings.CACHES["default"]["LOCATION"] = redis_next_database(url)
    setting_changed.send(sender=type(settings), setting="CACHES", value=settings.CACHES, enter=True)
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = url  # type: ignore[index]
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    from webapp.core import queue

    queue._producer = None
    yield url
    server.stop()


@pytest.fixture(scope="session", autouse=True)
def _static_files_looked_up_on_request() -> None:
    """Django's test client builds the middleware anew for every client, and WhiteNoise would index the ~500 static
    files each time (a tenth of a second per test): in this process they are looked up when asked for instead. The
    servers the tests start index them once, as deployed."""
    from django.conf import settings

    if settings.configured:
        settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(scope="session", autouse=True)
def _empty_media_folder() -> None:
    """Each run starts with an empty media folder of its own: what an earlier run stored belongs to nobody now, and
    would otherwise pile up run after run (hundreds of megabytes) under every test that reads the folder."""
    from django.conf import settings

    if settings.configured:
        shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """A channel layer per test: channels_redis keeps asyncio locks that belong to the loop that made them, and
    each async test runs on a loop of its own (a lock left held by an ended test's loop would break the next)."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session")
def scripted_llm_server() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def llm(scripted_llm_server: ScriptedLLM, settings: object) -> Iterator[ScriptedLLM]:
    """The scripted model, reset for this test and configured as the server's default model."""
    scripted_llm_server.reset()
    settings.HIVE_LLM_BASE_URL = scripted_llm_server.base_url  # type: ignore[attr-defined]
    settings.HIVE_LLM_MODEL = "scripted"  # type: ignore[attr-defined]
    yield scripted_llm_server
    scripted_llm_server.reset()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> Iterator[None]:
    """On PostgreSQL (the default), a server of the suite's own for the test database, stopped at the end;
    unless HIVE_TEST_DATABASE_URL names one. pytest-django makes the test database on it afterwards."""
    from django.conf import settings

    if settings.HIVE_TEST_DB != "postgres" or "HIVE_TEST_DATABASE_URL" in os.environ:
        yield
        return
    server = PostgresServer()
    try:
        server.start()
        # In place: Django's connection handler holds this very dict.
        settings.DATABASES["default"].update(database_config(server.url))
        # A transactional test ends by emptying every table (TRUNCATE, table after table) while the suite's web
        # server and worker may still be in a transaction of their own: when the two wait on each other, the
        # server's transaction is the one PostgreSQL cancels (it checks after 1 s, this connection after 20 s).
        settings.DATABASES["default"]["OPTIONS"] = {"options": "-c deadlock_timeout=20s"}
        yield
    finally:
        server.stop()


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest) -> bool:
    """The suite's own server is deleted whole at the end: its test database is not dropped first (a dropped
    database must have no session left, and threads of the test process keep theirs open)."""
    from django.conf import settings

    own_server = settings.HIVE_TEST_DB == "postgres" and "HIVE_TEST_DATABASE_URL" not in os.environ
    return own_server or bool(request.config.getvalue("reuse_db"))


# Where the services' e-mails go (one file per message batch), and the address their links name.
PUBLIC_URL = "https://hive.example"


@pytest.fixture(scope="session")
def mail_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="session")
def services_env(
    redis_url: str, scripted_llm_server: ScriptedLLM, django_db_setup: None, mail_dir: Path
) -> dict[str, str]:
    return service_env(
        redis_url=redis_url,
        database_url=suite_database_url(),
        extra={
            "HIVE_LLM_BASE_URL": scripted_llm_server.base_url,
            "HIVE_LLM_MODEL": "scripted",
            "HIVE_EMAIL_URL": f"filemail:///{mail_dir}",
            "HIVE_PUBLIC_URL": PUBLIC_URL,
        },
    )


def worker_ids(url: str) -> set[str]:
    client = redis.Redis.from_url(url)
    try:
        return {k.decode().removeprefix("hive:worker:") for k in client.scan_iter(match="hive:worker:*")}
    finally:
        client.close()


def start_ready_worker(name: str, env: dict[str, str], redis_url: str, *, queues: str = "hive") -> Managed:
    before = worker_ids(redis_url)
    worker = start_worker(name, env, queues=queues)
    try:
        wait_until(lambda: bool(worker_ids(redis_url) - before) or not worker.alive(), 60, f"worker {name}")
    except TimeoutError:
        worker.stop()
        raise
    if not worker.alive():
        raise RuntimeError(f"worker {name} died at start:\n{worker.log_tail()}")
    return worker


class MainWorker:
    """The shared Celery worker. Tests that need the only workers alive to be their own stop it; the next
    test that needs it starts it again."""

    def __init__(self, env: dict[str, str], redis_url: str) -> None:
        self.env = env
        self.redis_url = redis_url
        self.worker: Managed | None = None

    def ensure(self) -> Managed:
        if self.worker is None or not self.worker.alive():
            redis.Redis.from_url(self.redis_url).delete("hive")  # tasks queued by earlier tests for rows long gone
            self.worker = start_ready_worker("main", self.env, self.redis_url)
        return self.worker

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        # A worker killed because it took too long to stop (a busy machine) leaves its entry in the registry until
        # it expires: the web would still send work to it instead of the queue the test reads.
        client = redis.Redis.from_url(self.redis_url)
        for key in client.scan_iter(match="hive:worker:main@*"):  # the worker is named main@<host>
            client.delete(key)


@pytest.fixture(scope="session")
def main_worker(services_env: dict[str, str], redis_url: str) -> Iterator[MainWorker]:
    handle = MainWorker(services_env, redis_url)
    yield handle
    handle.stop()


@pytest.fixture
def no_main_worker(main_worker: MainWorker) -> None:
    """For a test that reads the queue or the worker registry as the web leaves them: the shared worker, started by
    an earlier test, would take the messages or announce itself meanwhile."""
    main_worker.stop()


@pytest.fixture
def celery_worker(main_worker: MainWorker) -> Managed:
    """A real Celery worker (threads pool, its own asyncio loop and browser pool) on the shared queue."""
    return main_worker.ensure()


@pytest.fixture(scope="session")
def web_server(services_env: dict[str, str]) -> Iterator[str]:
    """Daphne serving the whole app (API, websockets, the built dashboard) on a free port."""
    server, url = start_daphne(services_env)
    yield url
    server.stop()


@pytest.fixture
def user() -> User:
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def other_user() -> object:
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def conversation(user: User) -> Conversation:
    from tests.factories import ConversationFactory

    return ConversationFactory(owner=user)


@pytest.fixture
def api(user: User) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(user)  # type: ignore[arg-type]
    return client
