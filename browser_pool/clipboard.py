"""A clipboard of its own for each session.

Chromium has one clipboard for the whole browser, and every session on a worker is a context of that one browser:
without this, text one user copies (a token, a password from a manager page) is what another user pastes. Each
context gets `clipboard_guard.js` in every document before the page's scripts, and a `SessionClipboard` here: copies
and cuts (keys, `execCommand`, `navigator.clipboard.write*`) go to the session's clipboard and leave the browser's
empty; pastes (Control+V, Shift+Insert, a middle click) take the session's clipboard, never the browser's. Reading
the clipboard without a paste (`navigator.clipboard.read*`) stays refused: Hive never grants that permission.

The guard talks to this module through a binding that answers only to a token the context's pages never see.
"""

from __future__ import annotations

import hmac
import secrets
import weakref
from dataclasses import dataclass
from importlib import resources
from typing import Any

from playwright.async_api import BrowserContext

BINDING = "__hiveClipboard"
# A copy longer than this is cut: the clipboard lives in the worker's memory, which every session shares.
MAX_CLIPBOARD_CHARS = 1_000_000

_GUARD_SOURCE = resources.files(__package__).joinpath("clipboard_guard.js").read_text(encoding="utf-8")


@dataclass(slots=True)
class SessionClipboard:
    text: str = ""


_clipboards: weakref.WeakKeyDictionary[BrowserContext, SessionClipboard] = weakref.WeakKeyDictionary()


def clipboard_of(context: BrowserContext) -> SessionClipboard | None:
    return _clipboards.get(context)


async def install_clipboard(context: BrowserContext) -> SessionClipboard:
    """Give ``context`` its own clipboard; call before its pages load anything. Idempotent."""
    board = _clipboards.get(context)
    if board is not None:
        return board
    board = _clipboards[context] = SessionClipboard()
    token = secrets.token_urlsafe(24)

    def on_call(_source: Any, given: Any = None, operation: Any = None, text: Any = None) -> str | None:
        if not isinstance(given, str) or not hmac.compare_digest(given, token):
            return None
        if operation == "copy" and isinstance(text, str):
            board.text = text[:MAX_CLIPBOARD_CHARS]
        elif operation == "paste":
            return board.text
        return None

    await context.expose_binding(BINDING, on_call)
    guard = _GUARD_SOURCE.replace("__HIVE_CLIPBOARD_TOKEN__", token).replace("__HIVE_CLIPBOARD_BINDING__", BINDING)
    await context.add_init_script(script=guard)
    return board
