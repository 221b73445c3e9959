"""Chromium dying under live sessions, and shutting the pool down without leaving processes behind."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from browser_pool.errors import BrowserCrashedError, PoolNotStartedError
from tests.support.procs import is_running, process_tree
from tests.support.waiting import eventually

from .conftest import running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]


def _chromium_descendants() -> list[int]:
    """Chromium processes anywhere below this test process (via the Playwright driver)."""
    found = []
    for pid in process_tree(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"chromium" in command.split(b"\0")[0] and is_running(pid):
            found.append(pid)
    return found


@pytest.mark.slow
async def test_a_crash_fails_in_flight_work_clearly_then_the_session_is_restored(site: str) -> None:
    async with running_pool(max_sessions=4, warm_contexts=1) as (pool, events):
        session = await pool.acquire("conversation-7")
        await session.active_page.goto(f"{site}/plain.html")
        await session.active_page.evaluate(
            "document.cookie = 'login=yes; path=/; max-age=600'; localStorage.setItem('draft', 'kept')"
        )
        await session.open_tab(f"{site}/index.html")
        await pool.release(session)  # the end of a turn saves the session
        saved = events.saved["conversation-7"]
        session = await pool.acquire("conversation-7")
        old_pid = pool.browser_pid
        assert old_pid is not None
        old_tree = process_tree(old_pid)
        assert len(old_tree) > 2, "a browser with a page has a renderer and helper processes"

        never_settles = asyncio.ensure_future(session.run(session.active_page.evaluate("new Promise(() => {})")))
        await asyncio.sleep(0.2)
        os.kill(old_pid, signal.SIGKILL)

        with pytest.raises(BrowserCrashedError, match="the browser crashed"):
            await asyncio.wait_for(never_settles, 5)
        with pytest.raises(BrowserCrashedError):
            _ = session.active_page
        await eventually(lambda: events.lost == ["conversation-7"], 15, "the pool to report the lost session")
        assert pool.browser_pid not in (None, old_pid)
        await eventually(lambda: not any(is_running(pid) for pid in old_tree), 10, "the old browser's processes")

        restored = await pool.acquire("conversation-7", saved)

        assert restored is not session
        tabs = await restored.list_tabs()
        assert [t.url for t in tabs] == [f"{site}/plain.html", f"{site}/index.html"]
        assert tabs[1].active
        assert await restored.active_page.evaluate("document.cookie") == "login=yes"
        # The relaunched browser answers the restored pages' requests for their saved local storage too.
        assert await restored.active_page.evaluate("localStorage.getItem('draft')") == "kept"
        assert pool.crash_count == 1


async def test_stop_leaves_no_chromium_process_behind(site: str) -> None:
    async with running_pool(max_sessions=4, warm_contexts=2) as (pool, _events):
        for key in ("a", "b"):
            session = await pool.acquire(key)
            await session.active_page.goto(f"{site}/plain.html")
        assert pool.browser_pid is not None
        browser_tree = process_tree(pool.browser_pid)
        assert len(_chromium_descendants()) >= 4

    # Only this pool's own processes: other fixtures (a Celery worker) may run a Chromium of their own.
    await eventually(lambda: not any(is_running(pid) for pid in browser_tree), 10, "chromium processes to exit")
    with pytest.raises(PoolNotStartedError):
        await pool.acquire("after-stop")
