"""A restored session's local storage, written lazily: each saved origin's items go into its first document.

Playwright's own restore (`set_storage_state`) opens a hidden page and visits every saved origin before the session
is handed out, and its save visits every origin again: a navigation, often a renderer, per origin (100-200 ms each).
Here the cookies are added at once, and an origin's saved local storage is written by the session's init script in the
first top-level document of that origin, before the page's own scripts run. An origin the session never opens costs
nothing, at the start or at the save, and keeps its saved items as they were.

The init script holds no items: it knows the names of the saved origins and, in a top-level document of one of them,
asks for that origin's items with a synchronous same-origin request to a path holding the session's random token. The
request never reaches the network: `RestoreDesk`, a browser-wide DevTools session, intercepts exactly those paths and
answers from the worker. It hands an origin's items out once, and only to a GET at that origin's address (where the
browser sends the request, not what the page says) carrying a header of Hive's: a frame, an image, a script tag or a
no-cors fetch cannot carry one, and a script of another origin that adds it must send a preflight (answered empty,
so the request never follows) and its own `Origin`. Anything else is answered empty, as JSON marked nosniff.

Origins that carry IndexedDB are restored the way Playwright does, before the session is handed out: its IndexedDB
restore is asynchronous and would race the page's own scripts.

A site whose policy forbids the request (`Permissions-Policy: sync-xhr`, a `connect-src` without 'self') starts
without its saved local storage; its saved items are kept for the next session, laid under anything it wrote.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
import weakref
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession
from playwright.async_api import Error as PlaywrightError

from browser_pool.background import BackgroundTasks
from browser_pool.errors import BrowserCrashedError

log = logging.getLogger(__name__)

StorageState = dict[str, Any]  # Playwright's storage state: {"cookies": [...], "origins": [...]}
RESTORE_PATH = "/.well-known/hive-storage/"
RESTORE_HEADER = "X-Hive-Storage"

_SCRIPT = """(() => {
  if (window.top !== window || !%(origins)s.includes(location.origin)) return;
  const request = new XMLHttpRequest();
  try {
    request.open("GET", location.origin + %(path)s, false);
    request.setRequestHeader(%(header)s, "1");
    request.send();
  } catch (error) {
    return;  // the site's policy refuses it: the origin's items stay saved for the next session
  }
  if (request.status !== 200) return;
  try {
    for (const [name, value] of JSON.parse(request.responseText)) localStorage.setItem(name, value);
  } catch (error) {}
})();"""


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}".lower()


def split_origins(state: StorageState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The saved origins restored before the session starts (they carry IndexedDB, or an origin spelt in a way a page's
    `location.origin` never is) and those restored lazily."""
    eager: list[dict[str, Any]] = []
    lazy: list[dict[str, Any]] = []
    for entry in state.get("origins") or []:
        if entry.get("indexedDB") or origin_of(str(entry.get("origin", ""))) != entry.get("origin"):
            eager.append(entry)
        elif entry.get("localStorage"):
            lazy.append(entry)
    return eager, lazy


async def restore(
    context: BrowserContext, state: StorageState, desk: RestoreDesk | None, key: str
) -> LazyStorage | None:
    """Put a save's storage into a warm context: cookies at once, local storage when each origin first loads, origins
    with IndexedDB the way Playwright does (visiting each now). Returns what is left to write, if anything."""
    eager, lazy = split_origins(state)
    cookies = state.get("cookies") or []
    lazy_storage = LazyStorage(lazy) if lazy else None

    async def cookies_and_eager() -> None:
        try:
            if eager:
                early = {"cookies": cookies, "origins": eager}
                await context.set_storage_state(early)  # type: ignore[arg-type]  # a saved dict has that shape
            elif cookies:
                await context.add_cookies(cookies)
        except PlaywrightError as exc:
            if context.browser is None or not context.browser.is_connected():
                raise
            # The local storage is kept: a bad cookie need not cost the session its other sign-ins.
            log.warning("saved cookies of session %s are unusable (%s); starting without", key, exc.message)

    async def lazily() -> None:
        if lazy_storage is None:
            return
        if desk is None:
            raise BrowserCrashedError("the browser crashed")
        await asyncio.gather(desk.add(lazy_storage), context.add_init_script(lazy_storage.init_script()))

    await asyncio.gather(cookies_and_eager(), lazily())
    return lazy_storage


class LazyStorage:
    """The saved origins of one session whose local storage is not written yet."""

    def __init__(self, origins: list[dict[str, Any]]) -> None:
        self.token = secrets.token_urlsafe(18)
        self._pending: dict[str, dict[str, Any]] = {entry["origin"]: entry for entry in origins}

    @property
    def pending(self) -> list[str]:
        return list(self._pending)

    @property
    def path(self) -> str:
        return RESTORE_PATH + self.token

    def init_script(self) -> str:
        return _SCRIPT % {
            "origins": json.dumps(sorted(self._pending)),
            "path": json.dumps(self.path),
            "header": json.dumps(RESTORE_HEADER),
        }

    def hand_out(self, origin: str) -> list[list[str]] | None:
        """The origin's saved items, once: the first document of the origin writes them."""
        entry = self._pending.pop(origin, None)
        if entry is None:
            return None
        return [[str(item.get("name", "")), str(item.get("value", ""))] for item in entry.get("localStorage") or []]

    def merged(self, state: StorageState) -> StorageState:
        """A save of the session with the saved origins it has not restored: as they were, with anything a document
        of theirs wrote meanwhile (a site that refused the restore, a frame) laid over them."""
        if not self._pending:
            return state
        read = {entry.get("origin"): entry for entry in state.get("origins") or []}
        for origin, saved in self._pending.items():
            current = read.get(origin)
            if current is None:
                read[origin] = saved
                continue
            items = {item["name"]: item["value"] for item in saved.get("localStorage") or []}
            items.update({item["name"]: item["value"] for item in current.get("localStorage") or []})
            read[origin] = {**current, "localStorage": [{"name": k, "value": v} for k, v in items.items()]}
        return {**state, "origins": list(read.values())}


class RestoreDesk:
    """Answers the init scripts' requests for their origin's items, for every session of one browser."""

    def __init__(self, cdp: CDPSession) -> None:
        self._cdp = cdp
        # Weak: a closed session's storage goes with it; its token then gets empty answers.
        self._sessions: weakref.WeakValueDictionary[str, LazyStorage] = weakref.WeakValueDictionary()
        self._patterns_lock = asyncio.Lock()
        self._tasks = BackgroundTasks("restore-desk")
        cdp.on("Fetch.requestPaused", lambda event: self._tasks.spawn(self._answer(event), "restore-answer"))

    @classmethod
    async def attach(cls, browser: Browser) -> RestoreDesk:
        return cls(await browser.new_browser_cdp_session())

    async def add(self, storage: LazyStorage) -> None:
        """Intercept the session's restore requests from now on (before its pages load anything)."""
        self._sessions[storage.token] = storage
        async with self._patterns_lock:
            patterns = [
                {"urlPattern": f"*{RESTORE_PATH}{token}", "requestStage": "Request"} for token in self._sessions
            ]
            await self._cdp.send("Fetch.enable", {"patterns": patterns})

    async def _answer(self, event: dict[str, Any]) -> None:
        request = event["request"]
        url = str(request.get("url", ""))
        origin, path = origin_of(url), urlsplit(url).path
        storage = self._sessions.get(path.removeprefix(RESTORE_PATH))
        headers = {str(name).lower(): str(value) for name, value in (request.get("headers") or {}).items()}
        same_origin_xhr = (
            request.get("method") == "GET"
            # Only a script's request carries a header of its own (not a frame, an image, a no-cors fetch), and one
            # from another origin then names the page it comes from (and needs a preflight, answered empty).
            and headers.get(RESTORE_HEADER.lower()) == "1"
            and headers.get("origin", origin) == origin
        )
        items = storage.hand_out(origin) if storage is not None and same_origin_xhr else None
        answer: dict[str, Any] = {"requestId": event["requestId"], "responseCode": 204}
        if items is not None:
            body = json.dumps(items).encode()
            answer |= {
                "responseCode": 200,
                "responseHeaders": [
                    {"name": "Content-Type", "value": "application/json"},
                    {"name": "X-Content-Type-Options", "value": "nosniff"},
                    {"name": "Cache-Control", "value": "no-store"},
                ],
                "body": base64.b64encode(body).decode(),
            }
        try:
            await self._cdp.send("Fetch.fulfillRequest", answer)
        except PlaywrightError as exc:
            log.debug("answering a local storage restore failed (its page went away?): %s", exc.message)

    async def close(self) -> None:
        await self._tasks.close()
