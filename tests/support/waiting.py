"""Waiting for something the browser or a server does on its own schedule: poll a condition, fail with what."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


async def eventually(check: Callable[[], bool], within_s: float = 5.0, what: str = "condition") -> None:
    """Wait until ``check()`` holds; the browser does things on its own schedule."""
    deadline = time.monotonic() + within_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {within_s} s waiting for {what}")
        await asyncio.sleep(0.02)


async def until(check: Callable[[], Awaitable[bool]], within_s: float = 20.0, what: str = "condition") -> None:
    """Wait until the awaitable condition holds (a server's state read over the network or from the database)."""
    deadline = time.monotonic() + within_s
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {within_s} s waiting for {what}")
        await asyncio.sleep(0.1)
