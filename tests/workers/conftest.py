"""The worker's parts in this process (no Celery subprocess): real Chromium through the worker's own pool settings
(its network firewall on, loopback open as in every test), the real database and Redis, runs recorded by the
worker's sink. A browser module gets one pool; each test gets its own session."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async

from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.factories import ConversationFactory
from tests.support.static_server import serve_directory
from tests.workers.support import IN_PROCESS_WORKER
from webapp.conversations.models import Conversation
from webapp.core import placement
from workers.browser import pool_config

PAGES = Path(__file__).resolve().parents[1] / "integration" / "pages" / "workflow"
_keys = (f"worker-test-{n}" for n in itertools.count(1))


@pytest.fixture(autouse=True)
def _this_process_is_a_live_worker() -> Iterator[None]:
    """Runs held by this process carry a worker id with a heartbeat, so that no reaper (a Celery worker of another
    test, still running) takes them for a dead worker's and fails them."""
    key = placement.WORKER_KEY_PREFIX + IN_PROCESS_WORKER
    load = {"id": IN_PROCESS_WORKER, "queue": placement.worker_queue(IN_PROCESS_WORKER), "capacity": 0, "sessions": 0,
            "turns": 0, "ts": time.time()}  # fmt: skip
    placement.client().set(key, json.dumps(load))
    yield
    placement.client().delete(key)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The sign-up and sign-in pages, served from a folder a test may change."""
    for page in PAGES.iterdir():
        (tmp_path / page.name).write_text(page.read_text())
    with serve_directory(tmp_path) as base:
        yield base, tmp_path


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    browser_pool = BrowserPool(pool_config())
    await browser_pool.start()
    yield browser_pool
    await browser_pool.stop(save_sessions=False)


@pytest_asyncio.fixture(loop_scope="module")
async def session(pool: BrowserPool) -> AsyncIterator[Session]:
    key = next(_keys)
    browser_session = await pool.acquire(key)
    yield browser_session
    await pool.release(browser_session)
    await pool.close_session(key, save=False)


@pytest_asyncio.fixture(loop_scope="module")
async def conversation(transactional_db: None) -> Conversation:
    return await database_sync_to_async(ConversationFactory)()
