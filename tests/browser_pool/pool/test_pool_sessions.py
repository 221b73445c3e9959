"""Sessions: warm acquire, isolation, save and restore after reaping, the per-worker cap."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from browser_pool.errors import PoolFullError
from browser_pool.pool import BrowserPool
from browser_pool.session import SAVED_TYPED_SECRETS, Session
from browser_pool.types import SavedSession
from tests.support.waiting import eventually

from .conftest import PoolEvents, running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool_and_events() -> AsyncIterator[tuple[BrowserPool, PoolEvents]]:
    async with running_pool(max_sessions=6, warm_contexts=2) as started:
        yield started


@pytest.fixture
def pool(pool_and_events: tuple[BrowserPool, PoolEvents]) -> BrowserPool:
    return pool_and_events[0]


@pytest.fixture
def events(pool_and_events: tuple[BrowserPool, PoolEvents]) -> PoolEvents:
    return pool_and_events[1]


async def _cookies(session: Session) -> str:
    return str(await session.active_page.evaluate("document.cookie"))


async def test_warm_acquire_hands_out_a_ready_isolated_session(pool: BrowserPool, site: str) -> None:
    await eventually(lambda: pool.load.warm_contexts >= 2, what="warm contexts")
    warm_before = list(pool._warm)

    alice = await pool.acquire("warm-alice")

    # Served from the warm pool (how fast is bench/pool_acquire.py's to say): its context and blank page existed
    # before the acquire.
    assert alice.context in warm_before
    bob = await pool.acquire("warm-bob")
    assert bob.context is not alice.context

    await alice.active_page.goto(f"{site}/plain.html")
    await alice.active_page.evaluate("document.cookie = 'who=alice; path=/'; localStorage.setItem('who', 'alice')")
    await bob.active_page.goto(f"{site}/plain.html")

    assert await _cookies(alice) == "who=alice"
    assert await _cookies(bob) == ""
    assert await bob.active_page.evaluate("localStorage.getItem('who')") is None
    # The pool tops its warm contexts up again in the background, and having run out, keeps more ready.
    await eventually(lambda: pool.load.warm_contexts >= 2, what="warm contexts refilled")

    for session in (alice, bob):
        await pool.release(session)
        await pool.close_session(session.key, save=False)


async def test_reaped_session_is_saved_and_restored_with_logins_storage_and_tabs(
    pool: BrowserPool, events: PoolEvents, site: str
) -> None:
    async with pool.lease("reap-me") as session:
        await session.active_page.goto(f"{site}/plain.html?first")
        await session.active_page.evaluate(
            "document.cookie = 'login=token123; path=/; max-age=3600'; localStorage.setItem('draft', 'hello')"
        )
        second = await session.open_tab(f"{site}/index.html?second")
        first_id = (await session.list_tabs())[0].id
        await session.switch_tab(first_id)
        session.typed_by("user:1").add("typed-secret")
    # Releasing the last lease saved the session already, so a worker dying now would lose nothing.
    assert events.saved["reap-me"].tab_urls == [f"{site}/plain.html?first", second.url]

    busy = await pool.acquire("busy-while-reaping")
    reaped = await pool.reap_idle(now=time.monotonic() + pool.config.idle_timeout_s + 1)

    assert "reap-me" in reaped
    assert "busy-while-reaping" not in reaped, "a session in use must not be reaped"
    assert pool.get("reap-me") is None
    saved = events.saved["reap-me"]
    assert saved.active_index == 0

    restored = await pool.acquire("reap-me", saved)
    tabs = await restored.list_tabs()
    assert [t.url for t in tabs] == [f"{site}/plain.html?first", f"{site}/index.html?second"]
    assert [t.active for t in tabs] == [True, False]
    assert await _cookies(restored) == "login=token123"
    assert await restored.active_page.evaluate("localStorage.getItem('draft')") == "hello"
    # The pages it restores may show a secret typed before: the reopened session still knows it, for its typist.
    assert restored.typed_by("user:1") == {"typed-secret"}
    assert restored.typed_by("user:2") == set()
    # Another worker knows only the save: it carries the record too.
    moved = await pool.acquire("moved-to-another-worker", saved)
    assert moved.typed_by("user:1") == {"typed-secret"}
    assert moved.typed_by("user:2") == set()

    await pool.release(moved)
    await pool.release(restored)
    await pool.release(busy)
    for key in ("reap-me", "busy-while-reaping", "moved-to-another-worker"):
        await pool.close_session(key, save=False)


async def test_a_save_keeps_each_persons_longest_typed_secrets_up_to_its_bound(pool: BrowserPool) -> None:
    async with pool.lease("signed-in-daily") as session:
        passwords = {f"password-{n:03d}" for n in range(SAVED_TYPED_SECRETS)}
        session.typed_by("user:1").update({"123456", "654321", *passwords})  # two one-time codes besides
        session.typed_by("user:2").add("a teammate's")
        saved = await session.save()
    assert saved.typed_secrets == {"user:1": sorted(passwords), "user:2": ["a teammate's"]}
    await pool.close_session("signed-in-daily", save=False)


async def test_a_corrupt_save_still_restores_the_tabs(pool: BrowserPool, site: str) -> None:
    corrupt = SavedSession(storage_state={"cookies": [{"name": "no-domain"}]}, tab_urls=[f"{site}/plain.html"])

    async with pool.lease("corrupt-save", corrupt) as session:
        assert [t.url for t in await session.list_tabs()] == [f"{site}/plain.html"]
        assert await _cookies(session) == ""
    await pool.close_session("corrupt-save", save=False)


async def test_acquiring_a_live_session_returns_it_unchanged(pool: BrowserPool, site: str) -> None:
    first = await pool.acquire("twice")
    await first.active_page.goto(f"{site}/plain.html")
    second = await pool.acquire("twice")

    assert second is first
    assert [s.leases for s in pool.sessions if s.key == "twice"] == [2]
    await pool.release(first)
    await pool.release(second)
    assert [s.busy for s in pool.sessions if s.key == "twice"] == [False]
    await pool.close_session("twice", save=False)


async def test_cap_evicts_least_recently_used_idle_session_then_refuses_when_all_are_busy(site: str) -> None:
    async with running_pool(max_sessions=2, warm_contexts=1) as (pool, events):
        old = await pool.acquire("old")
        await old.active_page.goto(f"{site}/plain.html?old")
        await pool.release(old)
        events.saved.clear()
        working = await pool.acquire("working")

        newcomer = await pool.acquire("newcomer")

        assert pool.get("old") is None, "the idle session should have made room"
        assert events.saved["old"].tab_urls == [f"{site}/plain.html?old"], "an evicted session is saved first"
        assert {s.key for s in pool.sessions} == {"working", "newcomer"}
        assert pool.load.live_sessions == 2
        assert pool.load.capacity == 2
        with pytest.raises(PoolFullError, match="busy"):
            await pool.acquire("one-too-many")
        assert not working.closed
        assert not newcomer.closed


async def test_a_burst_that_empties_the_warm_pool_makes_it_keep_more_ready() -> None:
    async with running_pool(max_sessions=8, warm_contexts=1) as (pool, _events):
        await eventually(lambda: pool.load.warm_contexts == 1, what="the configured warm context")
        burst = [await pool.acquire(f"burst-{n}") for n in range(3)]

        # The next burst of the same size finds its contexts ready.
        await eventually(lambda: pool.load.warm_contexts >= 3, within_s=20, what="more warm contexts after the burst")
        ready = list(pool._warm)
        second = [await pool.acquire(f"again-{n}") for n in range(3)]
        assert all(session.context in ready for session in second), "the second burst waited for new contexts"
        for session in [*burst, *second]:
            await pool.release(session)
