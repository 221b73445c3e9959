"""Run work for a run on the worker's loop: claim it, hold the conversation's browser session, execute,
and record how it ended (succeeded, failed with a reason, or aborted with its finished steps kept)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog
from channels.db import database_sync_to_async
from django.conf import settings

from browser_pool.actions.watch import dialogs_answered_by
from browser_pool.errors import PoolError
from browser_pool.recording import FrameSpec, Recorder
from browser_pool.session import Session
from webapp.runs.models import Run
from webapp.runs.recordings import recording_save
from webapp.runs.services import run_finish, run_start
from workers.browser import SessionHost
from workers.live import CommandChannel, People, RunRegistry
from workers.policy import run_dialog_answerer
from workers.profiles import ProfileRefusedError
from workers.sink import WorkerSink, starter_key
from workers.traces import RunTrace

log = logging.getLogger(__name__)

ABORTED_MESSAGE = "Stopped by the user."
SHUTDOWN_MESSAGE = "The worker running this was shut down (a restart or an update) before it finished. Send it again."

RunBody = Callable[[Run, Session, WorkerSink], Awaitable[None]]


@dataclass(frozen=True)
class RunContext:
    """What running a run needs from its worker, and nothing else."""

    worker_id: str
    runs: RunRegistry
    sessions: SessionHost
    channel: CommandChannel
    people: People

    def sink(self, run: Run) -> WorkerSink:
        return WorkerSink(
            run_id=run.pk,
            conversation_id=run.conversation_id,
            people=self.people,
            web_tools=self.sessions.web_tools,
            save=lambda: self.sessions.save_now(run.conversation_id),
            starter=starter_key(run),
        )


# What must be kept before a run is recorded as ended, so that whoever sees it ended finds it: its recording, its
# trace, and the tabs as its steps left them.
_before_end: dict[int, Callable[[str | None], Awaitable[None]]] = {}
# That work under way: a run cut short (a timeout, an abort) while doing it lets it finish before the session goes
# back, rather than leave a trace half closed or a recording half stored.
_ending: dict[int, asyncio.Future[None]] = {}


async def _end_of_run_work(run_id: int, ending: str | None = None) -> None:
    """`ending`: the status about to be recorded, when it is known."""
    work = _before_end.pop(run_id, None)
    if work is not None:
        _ending[run_id] = asyncio.ensure_future(work(ending))
        await asyncio.shield(_ending[run_id])
        del _ending[run_id]


async def _end_of_run_work_done(run_id: int) -> None:
    """Wait for end work whose run was cut short while waiting for it."""
    left = _ending.pop(run_id, None)
    if left is not None:
        with contextlib.suppress(Exception):
            await left


async def finish(
    run_id: int, status: str, error: str = "", *, prompt: int = 0, completion: int = 0, model_calls: bool = True
) -> None:
    await _end_of_run_work(run_id, status)
    await database_sync_to_async(run_finish)(
        run_id=run_id,
        status=status,
        error=error,
        prompt_tokens=prompt,
        completion_tokens=completion,
        model_calls=model_calls,
    )


async def run_entry(worker: RunContext, run_id: int, body: RunBody, *, timeout_s: float) -> None:
    # This task's log records carry the run and its conversation (structlog contextvars, one context per task).
    structlog.contextvars.bind_contextvars(run_id=run_id)
    run = await database_sync_to_async(run_start)(run_id=run_id, worker_id=worker.worker_id)
    if run is not None:
        structlog.contextvars.bind_contextvars(conversation_id=run.conversation_id, user_id=run.conversation.owner_id)
    if run is None:
        log.info("run %s is not queued any more; skipping", run_id)
        return
    sink = worker.sink(run)
    trace = RunTrace(run, sink.secrets)
    inner = asyncio.create_task(_with_session(worker.sessions, run, sink, body, timeout_s, trace), name=f"run-{run_id}")
    worker.runs.add(run_id, inner)
    await worker.channel.attach(run.conversation_id)
    try:
        # An abort that arrived between the claim and the attach is in the database.
        if await database_sync_to_async(Run.objects.filter(pk=run_id, abort_requested=True).exists)():
            worker.runs.abort(run_id)
        await inner
    except asyncio.CancelledError:
        if not worker.runs.was_aborted(run_id):
            await finish(run_id, Run.Status.FAILED, SHUTDOWN_MESSAGE)
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            return
        await sink.close()
        await finish(run_id, Run.Status.ABORTED, ABORTED_MESSAGE)
    except TimeoutError:
        await sink.close()
        await finish(run_id, Run.Status.FAILED, f"The turn took longer than {timeout_s:.0f} s.")
    except PoolError as exc:
        await sink.close()
        await finish(run_id, Run.Status.FAILED, f"The browser failed: {exc}")
    except ProfileRefusedError as exc:
        await sink.close()
        await finish(run_id, Run.Status.FAILED, str(exc))
    except Exception as exc:
        log.exception("run %s crashed", run_id)
        await finish(run_id, Run.Status.FAILED, f"Internal error: {exc.__class__.__name__}: {exc}")
    finally:
        worker.runs.remove(run_id)
        await worker.channel.detach(run.conversation_id)
        await trace.keep()  # once the run's ending is recorded, which says whether its trace is kept


async def _with_session(
    sessions: SessionHost, run: Run, sink: WorkerSink, body: RunBody, timeout_s: float, trace: RunTrace
) -> None:
    async with asyncio.timeout(timeout_s):
        session = await sessions.acquire(run.conversation_id, run_id=run.pk)
        recorder: Recorder | None = None
        try:
            # The recording first: a trace sharing its screencast takes its pictures at the recording's smaller size.
            recorder = await _start_recording(run, session)
            if recorder is not None:
                sink.on_step = recorder.wake
            _before_end[run.pk] = functools.partial(_keep_run_end, run.pk, session, recorder, trace)
            await trace.begin(session)
            # The page's own dialogs on sensitive pages ask this run's user, whatever the run's kind.
            with dialogs_answered_by(session.context, run_dialog_answerer(run.conversation, sink.confirm)):
                await body(run, session, sink)
        finally:
            try:
                try:
                    await _end_of_run_work(run.pk)  # unless the run's body recorded its end already
                finally:
                    await _end_of_run_work_done(run.pk)
                    await trace.end()  # when the end of the run's work did not get to close it
            finally:
                await sessions.release(session)  # even when the recording is interrupted on its way


async def _start_recording(run: Run, session: Session) -> Recorder | None:
    """Record the agent's turns and workflow replays (an action by hand is its own step picture). A recording that
    cannot start leaves the run to go on unrecorded."""
    if run.kind not in Run.WORK_KINDS or settings.HIVE_RECORDING_FPS <= 0:
        return None
    recorder = Recorder(
        session,
        fps=settings.HIVE_RECORDING_FPS,
        max_bytes=settings.HIVE_RECORDING_MAX_BYTES,
        settle_s=settings.HIVE_RECORDING_SETTLE_S,
        spec=FrameSpec(*settings.HIVE_RECORDING_SIZE, settings.HIVE_RECORDING_QUALITY),
        typed=session.typed_by(starter_key(run)),
    )
    try:
        await recorder.start()
    except Exception:
        log.warning("run %s goes on unrecorded: the recording did not start", run.pk, exc_info=True)
        return None
    return recorder


async def _keep_run_end(
    run_id: int, session: Session, recorder: Recorder | None, trace: RunTrace, ending: str | None
) -> None:
    # The recording first: a run stopped while its tabs are told has its recording kept all the same.
    if recorder is not None:
        await _keep_recording(run_id, recorder)
    await trace.end(ending)
    # A trace the ending keeps is stored now, before the ending is recorded; one it would throw away waits for the
    # ending as recorded, which a run cut short on its way may yet change to a failure.
    if ending is not None:
        await trace.keep(ending, only_if_kept=True)
    await session.tabs_told()


async def _keep_recording(run_id: int, recorder: Recorder) -> None:
    try:
        recording = await recorder.stop()
        await database_sync_to_async(recording_save)(
            run_id=run_id, frames=recording.frames, truncated=recording.truncated
        )
    except Exception:
        log.warning("the recording of run %s was lost", run_id, exc_info=True)
