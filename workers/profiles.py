"""Conversations' browsers started from browser profiles, and saved back into them, one writer at a time.

A conversation bound to a profile (webapp.profiles ProfileUse) opens its browser from it: read-write, every new
session starts from the profile as it is now (it is the one truth) and the session's saves (after each run, when it
closes) go back into it while the session holds the profile's lease; read-only, the first session after the choice
starts from the profile and later ones from the conversation's own save, and nothing goes back. A choice made while
the browser is open is loaded into it at once (the old profile, if the session wrote one, gets its last save first).

The lease is a row update in the database (webapp.profiles.services): taken when the session opens, renewed at every
heartbeat, released when the session closes (reaped, evicted, lost, the worker stopping); a dead worker's lease ends
by itself after HIVE_PROFILE_LEASE_S, and a save from a session that lost its lease is refused, never merged.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings

from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from webapp.core.types import JsonObject
from webapp.profiles.models import BrowserProfile
from webapp.profiles.selectors import (
    SessionProfile,
    holder_text,
    profile_holder,
    profile_run_may_use,
    profile_state,
    session_profile,
)
from webapp.profiles.services import (
    profile_lease_release,
    profile_lease_take,
    profile_leases_renew,
    profile_loaded,
    profile_write_back,
)

log = logging.getLogger(__name__)

LEASE_POLL_S = 0.5  # how often a run waiting for another session's lease asks again


class ProfileRefusedError(Exception):
    """A run may not start from its conversation's profile (the message says why, for the run's error)."""


class ProfileInUseError(ProfileRefusedError):
    """A run would write a profile another session writes (the message names it)."""


@dataclass(slots=True)
class Applied:
    """The profile choice a live session was started from or loaded."""

    profile_id: int
    chosen_at: float
    writes: bool  # the choice is read-write
    writing: bool  # this session holds the profile's lease and saves into it
    chooser_id: int
    lent: bool  # someone else's profile: its storage stays out of the conversation's own save

    def matches(self, wanted: SessionProfile | None) -> bool:
        return (
            wanted is not None
            and wanted.profile_id == self.profile_id
            and wanted.chosen_at == self.chosen_at
            and wanted.writes == self.writes
        )


def _holder_message(profile_id: int, conversation_id: int) -> str:
    profile = BrowserProfile.objects.filter(pk=profile_id).first()
    holder = profile_holder(profile=profile, besides=conversation_id) if profile is not None else None
    if profile is None or holder is None:
        return "The profile this conversation starts from is in use by another session."
    return holder_text(profile.name, holder)


class ProfileKeeper:
    """Which of this worker's sessions came from which profile, and which write one (hold its lease)."""

    def __init__(self, pool: BrowserPool) -> None:
        self._pool = pool
        self._applied: dict[int, Applied] = {}
        # Weak: a conversation's lock lives only while someone holds or awaits it.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def choosing(self, conversation_id: int) -> AsyncIterator[None]:
        """One profile decision at a time per conversation (a run's, the live view's, a new choice's)."""
        lock = self._locks.get(conversation_id)
        if lock is None:
            lock = self._locks[conversation_id] = asyncio.Lock()
        async with lock:
            yield

    def deciding(self, conversation_id: int) -> bool:
        """Whether a profile decision for the conversation is under way (its session may be reopening)."""
        lock = self._locks.get(conversation_id)
        return lock is not None and lock.locked()

    def writing(self) -> list[int]:
        return [cid for cid, applied in self._applied.items() if applied.writing]

    def from_profile(self, conversation_id: int) -> bool:
        return conversation_id in self._applied

    def lent(self, conversation_id: int) -> bool:
        """Whether the conversation's browser holds the storage of a profile its owner does not own."""
        applied = self._applied.get(conversation_id)
        return applied is not None and applied.lent

    async def prepare(self, conversation_id: int, live: Session | None, *, run_id: int | None) -> JsonObject | None:
        """Decide what the conversation's session starts from, before it is opened (or for the open one): the
        profile's state to load, or None for the session as it is (or its own save). Takes the profile's lease for a
        read-write choice; a run that cannot have it raises ProfileInUseError, the live view opens without writing.
        A run whose starter may not use the profile raises ProfileRefusedError before anything changes."""
        wanted = await database_sync_to_async(session_profile)(conversation_id=conversation_id)
        for_run = run_id is not None
        if wanted is not None and run_id is not None:
            allowed = await database_sync_to_async(profile_run_may_use)(run_id=run_id, profile_id=wanted.profile_id)
            if not allowed:
                raise ProfileRefusedError(
                    f"This conversation's browser starts from the browser profile “{wanted.profile_name}”, which "
                    "is not shared with the person who started this run: its owner can share it with them as "
                    "controller, or start the run themselves."
                )
        applied = self._applied.get(conversation_id) if live is not None else None
        # The open browser holds a profile lent by someone else that no longer applies: it loses what was lent.
        lent_away: JsonObject | None = None
        if live is None:
            await self.closed(conversation_id)
        elif applied is not None and not applied.matches(wanted):
            lent_away = {} if applied.lent else None
            await self._let_go_of(conversation_id, live, applied)  # another choice, or none any more
            applied = None
        if wanted is None:
            return lent_away
        if applied is not None and (applied.writing or not wanted.writes):
            return None  # loaded already, and writing if it may
        writing = wanted.writes and await self._take(wanted, conversation_id, for_run=for_run)
        self._applied[conversation_id] = Applied(
            wanted.profile_id, wanted.chosen_at, wanted.writes, writing, wanted.chooser_id, wanted.lent
        )
        if wanted.writes and not writing:
            return lent_away  # the live view, while another session writes the profile: the conversation's own save
        if not wanted.writes and live is None and wanted.loaded and not wanted.lent:
            # Read-only, started from the profile once already: the conversation's own save since (which never
            # holds a lent profile's storage, so a lent one is loaded again).
            return None
        state: JsonObject = await database_sync_to_async(profile_state)(profile_id=wanted.profile_id)
        await database_sync_to_async(profile_loaded)(use_id=wanted.use_id)
        return state

    async def _take(self, wanted: SessionProfile, conversation_id: int, *, for_run: bool) -> bool:
        waited_until = time.monotonic() + (settings.HIVE_PROFILE_WRITER_WAIT_S if for_run else 0)
        take = database_sync_to_async(profile_lease_take)
        while not await take(profile_id=wanted.profile_id, conversation_id=conversation_id):
            if time.monotonic() >= waited_until:
                if not for_run:
                    return False
                message = await database_sync_to_async(_holder_message)(wanted.profile_id, conversation_id)
                raise ProfileInUseError(message)
            await asyncio.sleep(LEASE_POLL_S)
        return True

    async def _let_go_of(self, conversation_id: int, live: Session | None, applied: Applied) -> None:
        """Stop writing the profile: the session's state as it is now goes back into it first, if it is open."""
        if applied.writing and live is not None and not live.closed:
            try:
                await self._pool.save(str(conversation_id))  # saved back through `saved` below
            except Exception:
                log.exception("saving conversation %s back into its profile failed", conversation_id)
        self._applied.pop(conversation_id, None)
        if applied.writing:
            await database_sync_to_async(profile_lease_release)(
                profile_id=applied.profile_id, conversation_id=conversation_id
            )

    def started(self, conversation_id: int, session: Session) -> None:
        # A session from a profile keeps its IndexedDB in every save: sites keep sign-ins there too.
        session.keep_indexed_db = self.from_profile(conversation_id)
        # Marked on the session, whose storage it is: the mark goes only with the session (when it is opened again
        # without the lent storage), never while it still holds it.
        session.storage_lent = session.storage_lent or self.lent(conversation_id)

    async def saved(self, conversation_id: int, storage_state: JsonObject) -> None:
        """A save of the session: into its profile too, while it writes one."""
        applied = self._applied.get(conversation_id)
        if applied is None or not applied.writing:
            return
        kept = await database_sync_to_async(profile_write_back)(
            profile_id=applied.profile_id, conversation_id=conversation_id, state=storage_state,
            chooser_id=applied.chooser_id,
        )  # fmt: skip
        if not kept:
            applied.writing = False
            log.warning(
                "conversation %s no longer writes profile %s (its lease ended, the profile is gone, or its chooser "
                "may no longer write it): not saved back",
                conversation_id,
                applied.profile_id,
            )

    async def closing(self, conversation_id: int, *, save: bool = True) -> None:
        """The session is being let go of while still open (the worker stops): its profile gets its last save
        (`save=False`: it has just had it)."""
        applied = self._applied.get(conversation_id)
        if applied is not None:
            live = self._pool.get(str(conversation_id)) if save else None
            await self._let_go_of(conversation_id, live, applied)

    async def closed(self, conversation_id: int) -> None:
        """The session is gone (reaped, evicted, lost, discarded): its lease goes with it."""
        applied = self._applied.pop(conversation_id, None)
        if applied is not None and applied.writing:
            await database_sync_to_async(profile_lease_release)(
                profile_id=applied.profile_id, conversation_id=conversation_id
            )

    async def renew(self) -> None:
        await database_sync_to_async(profile_leases_renew)(conversation_ids=self.writing())

    def idle_writers(self) -> list[int]:
        """Sessions writing a profile that nobody has used or watched for HIVE_PROFILE_WRITER_IDLE_S: closing them
        lets go of their profiles for other sessions."""
        writing = set(self.writing())
        idle_after = settings.HIVE_PROFILE_WRITER_IDLE_S
        return [
            int(info.key)
            for info in self._pool.sessions
            if int(info.key) in writing and not info.busy and info.idle_s >= idle_after
        ]
