"""Fixtures for the agent library: the scripted model, a recording sink, and real Chromium through the pool.

A browser module gets one pool (one Chromium) for all its tests; each test gets its own session.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from browser_pool.config import BrowserConfig
from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.agents.support import RecordingSink
from tests.support.llm_server import ScriptedLLM
from tests.support.static_server import serve_directory

PAGES = Path(__file__).parent / "pages"
_keys = (f"agent-test-{n}" for n in itertools.count(1))


@pytest.fixture
def model_server(scripted_llm_server: ScriptedLLM) -> Iterator[ScriptedLLM]:
    """The scripted OpenAI-compatible model, reset for this test."""
    scripted_llm_server.reset()
    yield scripted_llm_server
    scripted_llm_server.reset()


@pytest.fixture
def sink() -> RecordingSink:
    return RecordingSink()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL of tests/agents/pages, served from 127.0.0.1."""
    with serve_directory(PAGES) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    browser_pool = BrowserPool(BrowserConfig(max_sessions=4, warm_contexts=1, idle_timeout_s=600.0))
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
