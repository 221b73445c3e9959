"""One session cannot take the worker from the others: its tabs, the time its pages keep a renderer busy and its
pages' memory are bounded (SessionLimits), and each time the pool steps in the agent (the next action's result)
and the owner (a notice) are told. The pool's own cap on sessions holds, and making room never closes a session in
use by a turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from browser_pool.actions import execute_action
from browser_pool.config import BrowserConfig
from browser_pool.errors import PoolFullError
from browser_pool.notices import SessionNotice
from browser_pool.pool import BrowserPool
from browser_pool.screencast import Frame
from browser_pool.watchdog import SessionLimits
from tests.support.static_server import serve_directory
from tests.support.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

LIMITS = SessionLimits(max_tabs=4, busy_page_s=3.0, max_memory_mb=200, check_every_s=0.25)
PAGES = {
    "plain.html": "<!doctype html><title>Plain</title><p>Nothing to see.</p>",
    "popups.html": """<!doctype html><title>Popups</title>
<button id=start onclick="window.timer = setInterval(() => window.open('plain.html'), 20)">start</button>""",
    "heavy.html": """<!doctype html><title>Heavy</title><script>
  window.kept = [];
  for (let i = 0; i < 3; i++) { const b = new ArrayBuffer(100e6); new Uint8Array(b).fill(1); kept.push(b); }
</script>""",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("bounds-pages")
    for name, body in PAGES.items():
        (folder / name).write_text(body)
    with serve_directory(folder) as base:
        yield base


class Told:
    """What the pool told the sessions' owners (the worker publishes these to the dashboard)."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, SessionNotice]] = []

    async def __call__(self, key: str, notice: SessionNotice) -> None:
        self.notices.append((key, notice))

    def of(self, key: str, kind: str) -> list[SessionNotice]:
        return [n for k, n in self.notices if k == key and n.kind == kind]


@pytest_asyncio.fixture
async def bounded() -> AsyncIterator[tuple[BrowserPool, Told]]:
    told = Told()
    pool = BrowserPool(BrowserConfig(max_sessions=3, warm_contexts=0, limits=LIMITS), on_notice=told)
    await pool.start()
    try:
        yield pool, told
    finally:
        await pool.stop(save_sessions=False)


async def test_popups_past_the_tab_limit_are_closed_at_once_and_told(
    bounded: tuple[BrowserPool, Told], site: str
) -> None:
    pool, told = bounded
    session = await pool.acquire("popups")
    assert (await execute_action(session, "navigate", {"url": f"{site}/popups.html"})).ok
    opener = session.active_page
    started = await execute_action(session, "click", {"selector": "#start"})
    assert started.ok, started.error

    def refused() -> int:
        return sum(n.count for n in told.of("popups", "tabs"))

    peak = 0

    def many_refused() -> bool:
        nonlocal peak
        peak = max(peak, len(session.tabs.all))
        return refused() >= 20

    await eventually(many_refused, 30, "twenty popups past the limit closed")
    await opener.evaluate("clearInterval(window.timer)")
    assert peak <= LIMITS.max_tabs, "the session never held more tabs than its limit"
    await eventually(lambda: len(opener.context.pages) <= LIMITS.max_tabs, 10, "the refused popups gone")
    assert "closed at once" in told.of("popups", "tabs")[0].text

    listed = await execute_action(session, "list_tabs", {})
    assert listed.ok
    assert len(listed.data["tabs"]) <= LIMITS.max_tabs
    assert any("tried to open more tabs" in notice for notice in listed.notices), "the agent hears it too"
    again = await execute_action(session, "list_tabs", {})
    assert again.notices == [], "each notice reaches the agent once"

    opened = await execute_action(session, "open_tab", {"url": f"{site}/plain.html"})
    assert not opened.ok
    assert "close one" in opened.error
    assert "close_tab" in opened.suggestion


async def test_a_page_that_blocks_its_renderer_is_closed_within_the_bound_and_others_go_on(
    bounded: tuple[BrowserPool, Told], site: str
) -> None:
    pool, told = bounded
    stuck, other = await pool.acquire("stuck"), await pool.acquire("other")
    assert (await execute_action(stuck, "navigate", {"url": f"{site}/plain.html"})).ok
    spinning = stuck.active_page
    assert (await execute_action(stuck, "execute_js", {"code": "setTimeout(() => { while (true) {} }, 50)"})).ok

    # While the stuck tab spins, another user's session works as usual.
    for _ in range(3):
        result = await execute_action(other, "navigate", {"url": f"{site}/plain.html"})
        assert result.ok, result.error
        assert (await execute_action(other, "execute_js", {"code": "document.title"})).data["result"] == '"Plain"'

    bound = LIMITS.busy_page_s + 2 * LIMITS.check_every_s + 3  # detection, one check late, closing
    await eventually(lambda: bool(told.of("stuck", "busy")), bound, "the busy tab closed")
    assert spinning.is_closed()
    notice = told.of("stuck", "busy")[0]
    assert "kept the browser busy" in notice.text
    assert "plain.html" in notice.text

    # The session goes on in a fresh tab, and its agent reads what happened in the next result.
    after = await execute_action(stuck, "navigate", {"url": f"{site}/plain.html"})
    assert after.ok, after.error
    assert any("kept the browser busy" in text for text in after.notices)
    assert not told.of("other", "busy")


async def test_a_session_over_its_memory_limit_loses_its_heaviest_tab(
    bounded: tuple[BrowserPool, Told], site: str
) -> None:
    pool, told = bounded
    session, neighbour = await pool.acquire("heavy"), await pool.acquire("neighbour")
    assert (await execute_action(session, "navigate", {"url": f"{site}/plain.html"})).ok
    light = session.active_page
    assert (await execute_action(neighbour, "navigate", {"url": f"{site}/plain.html"})).ok
    opened = await execute_action(session, "open_tab", {"url": f"{site}/heavy.html"})
    assert opened.ok, opened.error

    # The heavy page may be closed before the step's report even reaches here: it is looked for by its address.
    await eventually(lambda: bool(told.of("heavy", "memory")), 20, "the heavy tab closed")
    await eventually(lambda: all("heavy.html" not in p.url for p in session.context.pages), 10, "the heavy tab gone")
    assert not light.is_closed(), "the lighter tab of the session stays"
    assert not told.of("neighbour", "memory")
    notice = told.of("heavy", "memory")[0]
    assert f"more than the {LIMITS.max_memory_mb} MB" in notice.text
    assert "heavy.html" in notice.text
    assert any("MB" in text for text in (await execute_action(session, "list_tabs", {})).notices)


async def test_the_cap_on_sessions_holds_and_room_is_made_from_unused_then_watched_sessions() -> None:
    told = Told()
    pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=1, limits=LIMITS), on_notice=told)
    await pool.start()
    try:
        in_turn = await pool.acquire("in-turn")  # leased, as during an agent's turn
        watched = await pool.acquire("watched")
        await pool.release(watched)

        async def on_frame(_frame: Frame) -> None:
            return None

        await watched.screencast.subscribe(on_frame)
        unused = await pool.acquire("unused")  # room made from the watched session: nothing else is free
        assert pool.load.live_sessions == 2
        assert pool.get("watched") is None
        assert pool.get("in-turn") is in_turn
        assert told.of("watched", "evicted"), "its viewers are told it was put away"

        await pool.release(unused)
        newcomer = await pool.acquire("newcomer")  # the unused one goes first
        assert pool.get("unused") is None
        assert {info.key for info in pool.sessions} == {"in-turn", "newcomer"}
        assert not told.of("unused", "evicted"), "nobody was watching it"

        with pytest.raises(PoolFullError):
            await pool.acquire("one-too-many")  # both sessions are in turns: none is closed for it
        assert pool.load.live_sessions == 2
        await asyncio.gather(pool.release(in_turn), pool.release(newcomer))
    finally:
        await pool.stop(save_sessions=False)
