"""A run's Playwright trace in the worker: a run that `webapp.runs.traces` says is traced records a chunk while it
holds its session; when it ends, the chunk is kept (masked, then stored with the run) or discarded, as that module
decides.

A run that records its own ending has its chunk closed, and stored or discarded, just before: whoever sees the run
ended finds its trace. A run cut short (a timeout, a crash, an abort) is recorded as ended afterwards, so its chunk is
closed before the session goes back to the pool, written to a temporary file, and decided on once the ending is
recorded. A chunk the run already says it will not keep is discarded by the browser without being written.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from functools import partial
from pathlib import Path

from channels.db import database_sync_to_async
from django.conf import settings

from agents.secrets import Secrets, masked_any_case
from browser_pool.sandbox import CLOSED_TRACE_PREFIX, owned_folder
from browser_pool.session import Session
from browser_pool.tracing import mask_escaped, scrub_trace
from webapp.runs.models import Run
from webapp.runs.traces import TRACE_NAME, run_trace_decision, run_trace_store, run_traced
from workers.sink import starter_key

log = logging.getLogger(__name__)


class RunTrace:
    """One run's chunk of its session's trace, from `begin` (the session acquired) to `keep` (the run ended)."""

    def __init__(self, run: Run, secrets: list[Secrets]) -> None:
        self.run_id = run.pk
        self.title = f"Run {run.number} of conversation {run.conversation_id}"
        self._secrets = secrets  # the run's sink's list, filled while the run's steps are made ready
        self._starter = starter_key(run)
        # What the run's starter typed into the session, this run or an earlier one: masked even when the run ended
        # before its steps were made ready.
        self._typed: set[str] = set()
        self.wanted = run_traced(run)
        self._session: Session | None = None
        self._written: Path | None = None

    async def begin(self, session: Session) -> None:
        if not settings.HIVE_TRACE_RUNS or not self.wanted:
            return
        try:
            await session.run(session.tracing.begin(self.title))
        except Exception as exc:  # a run goes on untraced rather than failing for its trace
            log.warning("tracing run %s could not start: %r", self.run_id, exc)
            return
        self._session = session
        self._typed = session.typed_by(self._starter)

    async def end(self, ending: str | None = None) -> None:
        """Close the chunk while the session is still the run's (`ending`: the status the run is about to end with,
        when known)."""
        session, self._session = self._session, None
        if session is None or session.closed:
            return
        try:
            decision = await database_sync_to_async(run_trace_decision)(run_id=self.run_id, ending=ending)
        except Exception as exc:  # written, and decided on once the run has ended
            log.warning("whether run %s keeps its trace is not known yet: %r", self.run_id, exc)
            decision = "undecided"
        path = None
        if decision != "discard":
            # Named as this process's: if it dies before the chunk is stored, the next browser launch removes it.
            path = owned_folder(CLOSED_TRACE_PREFIX) / TRACE_NAME
        try:
            written = await session.run(session.tracing.end(path))
        except Exception as exc:
            log.info("the trace of run %s could not be closed: %r", self.run_id, exc)
            written = False
        self._written = path if written else None
        if path is not None and not written:
            shutil.rmtree(path.parent, ignore_errors=True)

    async def keep(self, ending: str | None = None, *, only_if_kept: bool = False) -> None:
        """Once the run's ending is known (`ending`, else as recorded): mask and store its chunk when the run keeps
        it, else throw it away (`only_if_kept`: else leave it to be decided on again)."""
        if self._written is None:
            return
        try:
            decision = await database_sync_to_async(run_trace_decision)(run_id=self.run_id, ending=ending)
        except Exception:
            log.exception("whether run %s keeps its trace could not be read", self.run_id)
            decision = "undecided"
        if decision != "keep" and only_if_kept:
            return
        path, self._written = self._written, None
        try:
            if decision == "keep":
                hidden = frozenset(self._typed).union(*(secrets.hidden() for secrets in self._secrets))
                # Pictures of a page that showed a typed secret back as text would show it: left out then.
                await asyncio.to_thread(scrub_trace, path, partial(self._mask, hidden), pictures=not hidden)
                await database_sync_to_async(run_trace_store)(run_id=self.run_id, path=path)
        except Exception:
            log.exception("the trace of run %s could not be kept", self.run_id)
        finally:
            shutil.rmtree(path.parent, ignore_errors=True)

    @staticmethod
    def _mask(hidden: frozenset[str], text: str) -> str:
        # Every secret at once (what each of the run's secrets masks is among them), a longer one first.
        return mask_escaped(masked_any_case(text, hidden), hidden)
