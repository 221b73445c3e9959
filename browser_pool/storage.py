"""Loading a storage state (cookies, local storage, IndexedDB, as Playwright's `storage_state()` gives it) into a
browser context."""

from __future__ import annotations

from typing import Any

from playwright.async_api import BrowserContext


async def load_storage(context: BrowserContext, state: dict[str, Any]) -> None:
    """Replace the context's cookies and storage with `state`."""
    await context.set_storage_state(state)  # type: ignore[arg-type]  # a saved dict has that shape
