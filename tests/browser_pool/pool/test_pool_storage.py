"""A session restored from a save with local storage on several origins: each origin's items are there for its pages'
first script, an origin the session never opened is saved back as it was, and no page gets another origin's items."""

from __future__ import annotations

import functools
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import pytest_asyncio

from browser_pool.pool import BrowserPool
from browser_pool.types import SavedSession
from tests.support.static_server import serve_directory

from .conftest import PAGES, running_pool

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    async with running_pool(max_sessions=4, warm_contexts=1) as (started, _events):
        yield started


@pytest.fixture(scope="module")
def other_site() -> Iterator[str]:
    """The same pages on another port: another origin."""
    with serve_directory(PAGES) as base:
        yield base


def _state(*origins: tuple[str, dict[str, str]]) -> dict[str, Any]:
    return {
        "cookies": [],
        "origins": [
            {"origin": origin, "localStorage": [{"name": k, "value": v} for k, v in items.items()]}
            for origin, items in origins
        ],
    }


def _items(state: dict[str, Any], origin: str) -> dict[str, str] | None:
    for entry in state["origins"]:
        if entry["origin"] == origin:
            return {item["name"]: item["value"] for item in entry["localStorage"]}
    return None


async def test_each_origin_has_its_items_for_its_first_script_and_one_never_opened_is_saved_back_as_it_was(
    pool: BrowserPool, site: str, other_site: str
) -> None:
    saved = SavedSession(
        storage_state=_state((site, {"token": "a-1"}), (other_site, {"token": "b-1", "theme": "dark"})),
        tab_urls=[f"{site}/storage.html"],
    )
    session = await pool.acquire("lazy-storage", saved)
    try:
        page = session.active_page
        assert await page.evaluate("window.firstSaw") == "a-1"
        await page.evaluate("localStorage.setItem('token', 'a-2')")

        state = (await session.save()).storage_state
        assert _items(state, site) == {"token": "a-2"}, "an origin visited and changed is saved as it is now"
        assert _items(state, other_site) == {"token": "b-1", "theme": "dark"}, "an origin never opened is kept"

        await page.goto(f"{other_site}/storage.html")
        assert await page.evaluate("window.firstSaw") == "b-1"
        await page.evaluate("localStorage.removeItem('theme')")
        state = (await session.save()).storage_state
        assert _items(state, other_site) == {"token": "b-1"}, "a removal on a restored origin is saved too"
        assert _items(state, site) == {"token": "a-2"}

        # Later documents of a restored origin see the page's own changes, not the saved items again.
        await page.goto(f"{site}/storage.html")
        assert await page.evaluate("window.firstSaw") == "a-2"
    finally:
        await pool.release(session)
        await pool.close_session("lazy-storage", save=False)


class _Recording(SimpleHTTPRequestHandler):
    paths: list[str]

    def do_GET(self) -> None:
        self.paths.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class names it so
        return


@dataclass
class WatchedOrigin:
    url: str
    paths: list[str] = field(default_factory=list)


@pytest.fixture
def watched_origin() -> Iterator[WatchedOrigin]:
    """The test pages on an origin of their own that writes down every path asked of it."""
    watched = WatchedOrigin("")
    handler = type("Recording", (_Recording,), {"paths": watched.paths})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(PAGES)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    watched.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield watched
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


async def test_a_page_cannot_obtain_another_origins_saved_items(
    pool: BrowserPool, site: str, watched_origin: WatchedOrigin
) -> None:
    secret_origin = watched_origin.url
    saved = SavedSession(
        storage_state=_state((site, {"token": "mine"}), (secret_origin, {"token": "theirs-secret"})),
        tab_urls=[f"{site}/storage.html"],
    )
    session = await pool.acquire("cross-origin-storage", saved)
    try:
        page = session.active_page
        assert await page.evaluate("window.firstSaw") == "mine"
        # The page finds the restore request in its resource timings and asks for the other origin's items every
        # way it can: a cross-origin XHR, a fetch, a no-cors fetch, a frame, a script.
        got = await page.evaluate(
            """async (other) => {
              const asked = performance.getEntriesByType("resource").map(e => e.name).find(n => n.includes("hive-"));
              const target = other + new URL(asked).pathname;
              const seen = [];
              for (const header of [false, true]) {
                try {
                  const x = new XMLHttpRequest();
                  x.open("GET", target, false);
                  if (header) x.setRequestHeader("X-Hive-Storage", "1");
                  x.send();
                  seen.push(x.responseText);
                } catch (e) { seen.push("xhr refused"); }
              }
              const asks = [{}, {headers: {"X-Hive-Storage": "1"}}, {mode: "no-cors"}];
              for (const ask of asks) {
                try { seen.push(await (await fetch(target, ask)).text()); } catch (e) { seen.push("fetch refused"); }
              }
              const frame = document.createElement("iframe");
              frame.src = target;
              document.body.append(frame);
              await new Promise(done => { frame.onload = done; setTimeout(done, 2000); });
              const script = document.createElement("script");
              script.src = target;
              document.body.append(script);
              await new Promise(done => { script.onload = script.onerror = done; });
              return {asked, seen};
            }""",
            secret_origin,
        )
        assert "hive-storage" in got["asked"]
        assert "theirs-secret" not in str(got["seen"])
        assert not [path for path in watched_origin.paths if "hive-storage" in path], (
            "the worker answers it, not a site"
        )

        # The other origin still gets its own items at its first document.
        await page.goto(f"{secret_origin}/storage.html")
        assert await page.evaluate("window.firstSaw") == "theirs-secret"
    finally:
        await pool.release(session)
        await pool.close_session("cross-origin-storage", save=False)


async def test_indexed_db_is_restored_before_the_session_starts(pool: BrowserPool, site: str) -> None:
    first = await pool.acquire("idb-first")
    await first.active_page.goto(f"{site}/storage.html")
    await first.active_page.evaluate(
        """() => new Promise((done, fail) => {
          const open = indexedDB.open("signin", 1);
          open.onupgradeneeded = () => open.result.createObjectStore("tokens");
          open.onsuccess = () => {
            const tx = open.result.transaction("tokens", "readwrite");
            tx.objectStore("tokens").put("idb-token", "session");
            tx.oncomplete = () => done(null);
            tx.onerror = () => fail(tx.error);
          };
        })"""
    )
    first.keep_indexed_db = True
    saved = await first.save()
    await pool.release(first)
    await pool.close_session("idb-first", save=False)

    second = await pool.acquire("idb-second", saved)
    try:
        found = await second.active_page.evaluate(
            """() => new Promise(done => {
              const open = indexedDB.open("signin", 1);
              open.onsuccess = () => {
                const read = open.result.transaction("tokens").objectStore("tokens").get("session");
                read.onsuccess = () => done(read.result);
              };
            })"""
        )
        assert found == "idb-token"
    finally:
        await pool.release(second)
        await pool.close_session("idb-second", save=False)
