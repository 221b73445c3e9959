from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.support.browsers import launch_browser
from tests.support.static_server import serve_directory


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """A real Chromium that drives the dashboard the way a person would."""
    async with launch_browser() as browser:
        yield browser


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The agent tests' pages (an order form and its result page), served from loopback."""
    with serve_directory(Path(__file__).parents[1] / "agents" / "pages") as url:
        yield url
