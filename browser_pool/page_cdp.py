"""One CDP session per page for Hive's own raw protocol calls (stopping a runaway script, a step's picture).

It is opened while the page still answers: attaching to a renderer stuck in a loop never completes, and the script
stopper is needed exactly then.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

OPEN_TIMEOUT_S = 2.0

_sessions: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()


async def open_page_cdp(page: Page) -> None:
    """Open the page's session unless it has one; a page that does not answer in time goes without."""
    if page in _sessions or page.is_closed():
        return
    with contextlib.suppress(PlaywrightError, TimeoutError):
        async with asyncio.timeout(OPEN_TIMEOUT_S):
            _sessions[page] = await page.context.new_cdp_session(page)


def page_cdp(page: Page) -> CDPSession | None:
    """The page's session if one was opened, without opening one."""
    return _sessions.get(page)


def forget_page_cdp(page: Page, session: CDPSession) -> None:
    """Drop a session that failed (detached, or its page crashed), so that the next action opens a new one."""
    if _sessions.get(page) is session:
        del _sessions[page]
