"""Errors the pool raises, each worded so a caller can show it to a user as is."""

from __future__ import annotations


class PoolError(Exception):
    """Base class for browser pool errors."""


class PoolNotStartedError(PoolError):
    """The pool was used before `start()` or after `stop()`."""


class PoolFullError(PoolError):
    """Every session slot of this worker is taken by a session that is busy right now."""


class BrowserCrashedError(PoolError):
    """The browser process died under a session; the session is gone and must be restored from its save."""


class SessionClosedError(PoolError):
    """The session was closed (reaped, evicted or shut down) while someone still held it."""


class TabNotFoundError(PoolError, LookupError):
    """No tab with that id in this session."""


class TabLimitError(PoolError):
    """The session already has as many tabs as it may; one must be closed before another opens."""
