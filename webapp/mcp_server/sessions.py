"""Which conversation each MCP session of the older handshake works in.

A session id is the SDK's (the streamable HTTP session manager makes it and binds it to the token's user), so an
entry is made only for a session the SDK vouched for, and it is read only by the same user: another user's id, or
an id sent with the current protocol (which has no sessions, so nothing checks it), finds nothing. An entry is
forgotten when its session ends the way the SDK ends one: the client's DELETE, an answer that the session is gone
(404), or no request in flight for HIVE_MCP_IDLE_S (the SDK's idle timeout is the same setting). Sessions live in
one web process's memory, so this does too, and it holds at most one entry per live session. It is read on the
server's event loop and from the database threads, hence its lock.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings


@dataclass(slots=True)
class _Entry:
    user_id: int
    conversation_id: int
    last_seen: float  # when a request of the session last started or ended
    in_flight: int = 0  # requests of the session being served (a long GET stream keeps it alive)


class SessionConversations:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        # Oldest use first, so the expired ones are found at the front.
        self._entries: OrderedDict[str, _Entry] = OrderedDict()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._entries)

    def conversation(self, *, user_id: int, session_id: str) -> int | None:
        with self._lock:
            self._expire()
            entry = self._entries.get(session_id)
            return entry.conversation_id if entry is not None and entry.user_id == user_id else None

    def remember(self, *, user_id: int, session_id: str, conversation_id: int) -> None:
        """The SDK vouched for this session (it served the request on it) and bound it to this user."""
        with self._lock:
            self._expire()
            entry = self._entries.get(session_id)
            if entry is not None and entry.user_id != user_id:
                return
            in_flight = entry.in_flight if entry is not None else 0
            self._entries[session_id] = _Entry(user_id, conversation_id, self._clock(), in_flight)
            self._entries.move_to_end(session_id)

    def request_started(self, *, user_id: int, session_id: str) -> None:
        with self._lock:
            self._touch(user_id, session_id, +1)

    def request_ended(self, *, user_id: int, session_id: str, status: int | None, method: str) -> None:
        """A request of the session was answered: a DELETE that ended it, or a 404 that says the SDK no longer
        knows it, ends the entry too."""
        with self._lock:
            self._touch(user_id, session_id, -1)
            entry = self._entries.get(session_id)
            if entry is None or entry.user_id != user_id:
                return
            if status == 404 or (method == "DELETE" and status is not None and status < 400):
                del self._entries[session_id]

    def _touch(self, user_id: int, session_id: str, delta: int) -> None:
        entry = self._entries.get(session_id)
        if entry is None or entry.user_id != user_id:
            return
        entry.in_flight = max(0, entry.in_flight + delta)
        entry.last_seen = self._clock()
        self._entries.move_to_end(session_id)
        self._expire()

    def _expire(self) -> None:
        """Drop the sessions idle for longer than the SDK keeps them. The front is the longest unused; one in the
        middle of a request is stepped over (its end will touch it again)."""
        oldest = self._clock() - settings.HIVE_MCP_IDLE_S
        for session_id, entry in list(self._entries.items()):
            if entry.in_flight:
                continue
            if entry.last_seen >= oldest:
                break
            del self._entries[session_id]


session_conversations = SessionConversations()
