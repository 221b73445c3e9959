"""Fixtures for the browser pool tests: the test pages over HTTP, pools on real Chromium, and a record of saves."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from browser_pool.config import BrowserConfig
from browser_pool.pool import BrowserPool
from browser_pool.types import SavedSession, TabInfo
from tests.support.static_server import serve_directory

PAGES = Path(__file__).parent / "pages"


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """Base URL of tests/browser_pool/pool/pages served from 127.0.0.1."""
    with serve_directory(PAGES) as base:
        yield base


@dataclass
class PoolEvents:
    """What the pool told its owner: saves, tab lists, sessions lost in a crash."""

    saved: dict[str, SavedSession] = field(default_factory=dict)
    save_count: int = 0
    tabs: dict[str, list[TabInfo]] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)

    async def on_saved(self, key: str, saved: SavedSession) -> None:
        self.saved[key] = saved
        self.save_count += 1

    async def on_tabs(self, key: str, tabs: list[TabInfo]) -> None:
        self.tabs[key] = tabs

    async def on_lost(self, keys: list[str]) -> None:
        self.lost.extend(keys)


@asynccontextmanager
async def running_pool(**config: object) -> AsyncIterator[tuple[BrowserPool, PoolEvents]]:
    events = PoolEvents()
    settings = {"max_sessions": 6, "warm_contexts": 2, "idle_timeout_s": 300.0, **config}
    pool = BrowserPool(
        BrowserConfig(**settings),  # type: ignore[arg-type]
        on_session_saved=events.on_saved,
        on_tabs_changed=events.on_tabs,
        on_sessions_lost=events.on_lost,
    )
    await pool.start()
    try:
        yield pool, events
    finally:
        await pool.stop(save_sessions=False)
