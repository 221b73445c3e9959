"""What a run keeps at its end (its recording, its trace, its tabs) is kept in full even when the run is cut short
(a timeout, an abort) while keeping it: the work goes on, and the session is handed back only after it."""

from __future__ import annotations

import asyncio

import pytest

from workers import turns

pytestmark = pytest.mark.asyncio


async def test_end_work_cut_short_goes_on_to_its_end_and_is_waited_for() -> None:
    run_id = 987_654
    started, release = asyncio.Event(), asyncio.Event()
    done: list[str | None] = []

    async def keep_the_trace(ending: str | None) -> None:
        started.set()
        await release.wait()  # storing a trace takes a while
        done.append(ending)

    turns._before_end[run_id] = keep_the_trace
    ending = asyncio.create_task(turns._end_of_run_work(run_id, "succeeded"))
    await started.wait()
    ending.cancel()  # the run's time is up while its trace is being stored
    with pytest.raises(asyncio.CancelledError):
        await ending
    assert done == [], "still under way"

    await turns._end_of_run_work(run_id)  # the session's own end, with the work already taken
    waited = asyncio.create_task(turns._end_of_run_work_done(run_id))
    await asyncio.sleep(0)  # one turn of the loop: the wait runs until it blocks on the work
    assert not waited.done(), "the session is not handed back before the work ends"
    release.set()
    await waited
    assert done == ["succeeded"], "the work was cut short with its run"
    await turns._end_of_run_work_done(run_id)  # nothing left to wait for
    assert run_id not in turns._ending


async def test_end_work_not_cut_short_leaves_nothing_to_wait_for() -> None:
    run_id = 987_655
    done: list[str | None] = []

    async def keep(ending: str | None) -> None:
        done.append(ending)

    turns._before_end[run_id] = keep
    await turns._end_of_run_work(run_id, "failed")
    assert done == ["failed"]
    assert run_id not in turns._ending
