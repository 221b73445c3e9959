"""What the pool did to a session on its own, to be told to the agent and the dashboard.

A session's pages share a browser with strangers, so the pool keeps them within bounds (browser_pool.watchdog,
browser_pool.tabs): it closes popups past the tab limit, a tab whose script never yields, the heaviest tab of a
session over its memory limit. Each time, a notice says so: at once to the session's owner (the dashboard), and in
the next action's result (the agent), since the agent may not have been acting when it happened.
"""

from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass
from typing import Literal

from playwright.async_api import BrowserContext

NoticeKind = Literal["tabs", "busy", "memory", "evicted"]
# Notices kept for the next action; older ones are dropped (a page can provoke them without end).
KEPT = 20


@dataclass(frozen=True, slots=True)
class SessionNotice:
    kind: NoticeKind
    text: str
    tab_id: str = ""
    count: int = 1  # for "tabs": how many new tabs were closed


def tabs_refused_text(count: int, limit: int) -> str:
    tabs = "a new tab" if count == 1 else f"{count} new tabs"
    return (
        f"The page tried to open more tabs than a session may have ({limit}); {tabs} closed at once. "
        "Close tabs you no longer need with close_tab."
    )


class NoticeBoard:
    """The notices of one session not yet reported to its agent."""

    def __init__(self) -> None:
        self._pending: deque[SessionNotice] = deque(maxlen=KEPT)

    def post(self, notice: SessionNotice, *, limit: int = 0) -> SessionNotice:
        """Keep a notice for the next action; refused tabs in a row make one notice with their count."""
        last = self._pending[-1] if self._pending else None
        if notice.kind == "tabs" and last is not None and last.kind == "tabs":
            count = last.count + notice.count
            self._pending[-1] = SessionNotice("tabs", tabs_refused_text(count, limit), count=count)
        else:
            self._pending.append(notice)
        return notice

    def take(self) -> list[SessionNotice]:
        taken = list(self._pending)
        self._pending.clear()
        return taken


_boards: weakref.WeakKeyDictionary[BrowserContext, NoticeBoard] = weakref.WeakKeyDictionary()


def board_for(context: BrowserContext) -> NoticeBoard:
    board = _boards.get(context)
    if board is None:
        board = _boards[context] = NoticeBoard()
    return board


def take_notices(context: BrowserContext) -> list[str]:
    """What the pool did to the session of ``context`` since the last call, in words for the agent."""
    board = _boards.get(context)
    return [notice.text for notice in board.take()] if board is not None else []
