from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser

from tests.support.dashboard import launch_browser


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """A real Chromium that drives the dashboard the way a person would."""
    async with launch_browser() as browser:
        yield browser
