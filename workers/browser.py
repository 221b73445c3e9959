"""The worker's browser sessions: the pool, persisted saves, placement in Redis, live view and input.

A conversation's session is restored from its last save in the database when this worker takes it, saved
back after every turn (so a worker that dies later loses nothing of a finished turn) and when reaped.
While it lives here, this worker is its home in Redis and listens to the conversation's command group.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import redis
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from rest_framework import status

from agents.safety import SafetyConfig, SafetyPolicy, dialog_answerer
from browser_pool.actions.watch import DialogLimits, answer_dialogs_with, set_dialog_limits
from browser_pool.config import BrowserConfig
from browser_pool.downloads import DownloadLimits
from browser_pool.errors import TabNotFoundError
from browser_pool.extract import extract_page, without_text
from browser_pool.input import InputError, InputEvent
from browser_pool.notices import SessionNotice
from browser_pool.observe import set_details_value_chars
from browser_pool.pool import BrowserPool
from browser_pool.screencast import Frame, ScreencastOptions, Subscription
from browser_pool.session import Session
from browser_pool.types import SavedSession, TabInfo
from browser_pool.watchdog import SessionLimits
from webapp.conversations.browser_selectors import browser_session_state
from webapp.conversations.browser_services import browser_session_save, browser_session_set_tabs, tab_content_save
from webapp.conversations.live import viewer_count
from webapp.core import placement
from webapp.core.events import Frame as FramePayload
from webapp.core.events import FrameMessage, SessionNoticeEvent, conversation_group, publish_now
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from workers.downloads import keeper
from workers.egress import egress_blocked, egress_policy
from workers.profiles import ProfileKeeper
from workers.webtools import WebTools

if TYPE_CHECKING:
    from workers.live import CommandChannel

log = logging.getLogger(__name__)

LENT_NOT_CAPTURED = (
    "This browser started from a profile someone shared with you: its sign-ins are theirs, and cannot be saved as a "
    "profile of yours. Stop starting from it (no profile), then sign in yourself and save the browser."
)
# A page's dialog on a sensitive page outside any run (a person's input on the live view): nobody to ask, dismissed.
NOBODY_TO_ASK = dialog_answerer(SafetyPolicy(SafetyConfig()), None, timeout_s=0)


def pool_config() -> BrowserConfig:
    set_dialog_limits(DialogLimits(settings.HIVE_DIALOG_TEXTS_KEPT, settings.HIVE_DIALOG_TEXT_MAX_CHARS))
    set_details_value_chars(settings.HIVE_ELEMENT_VALUE_CHARS)
    config = BrowserConfig(
        warm_contexts=settings.HIVE_POOL_WARM_CONTEXTS,
        idle_timeout_s=settings.HIVE_POOL_IDLE_TIMEOUT_S,
        egress=egress_policy(),  # always on in Hive: every request of every context passes the firewall
        browser_user=settings.HIVE_BROWSER_USER,
        allow_no_sandbox=settings.HIVE_BROWSER_ALLOW_NO_SANDBOX,
        limits=SessionLimits(
            max_tabs=settings.HIVE_SESSION_MAX_TABS,
            busy_page_s=settings.HIVE_SESSION_BUSY_PAGE_S,
            max_memory_mb=settings.HIVE_SESSION_MAX_MEMORY_MB,
            check_every_s=settings.HIVE_SESSION_CHECK_EVERY_S,
        ),
        downloads=DownloadLimits(
            max_bytes=settings.HIVE_DOWNLOAD_MAX_BYTES,
            in_flight=settings.HIVE_DOWNLOADS_AT_ONCE,
            timeout_s=settings.HIVE_DOWNLOAD_TIMEOUT_S,
        ),
    )
    if settings.HIVE_POOL_MAX_SESSIONS > 0:
        config.max_sessions = settings.HIVE_POOL_MAX_SESSIONS
    return config


class SessionHost:
    """The conversations' browser sessions this worker holds: where each lives (placement), its live view, its
    saves, and the worker listening to its commands while it is held."""

    def __init__(self, *, worker_id: str, channel: CommandChannel) -> None:
        self.worker_id = worker_id
        self.channel = channel
        self.pool = BrowserPool(
            pool_config(),
            on_egress_blocked=egress_blocked,
            on_session_saved=self._saved,
            on_tabs_changed=self._tabs_changed,
            on_sessions_lost=self._lost,
            screencast_options=ScreencastOptions(max_fps=settings.HIVE_LIVE_VIEW_FPS),
            on_notice=self._notice,
            on_download=keeper,  # kept with the conversation (workers.downloads)
        )
        self._held: set[int] = set()
        self.profiles = ProfileKeeper(self.pool)
        self.web_tools = WebTools()
        self._streams: dict[int, Subscription] = {}
        self._lock = asyncio.Lock()
        self._stream_locks: dict[int, asyncio.Lock] = {}
        self._input_locks: dict[int, asyncio.Lock] = {}
        # What was last written for each held session (its save, its tabs): a run ends with a save and a navigation
        # announces its tabs more than once, mostly unchanged; the same again is not written (and encrypted) twice.
        self._last_saved: dict[int, SavedSession] = {}
        self._last_tabs: dict[int, list[TabInfo]] = {}
        # Sessions whose profile changed while a run held them: looked at again when the run lets go.
        self._profile_recheck: set[int] = set()

    async def start(self) -> None:
        await self.pool.start()

    async def save_all(self) -> None:
        """Save every live session as it is now: a worker about to stop does, before it hands its conversations on."""
        await self.pool.save_all()

    async def stop(self, *, save: bool = True) -> None:
        """Close every session, saved first (`save=False`: they were just saved), and the browser."""
        for conversation_id in list(self._held):
            # Its profile gets its last save while it is still open (unless every session was just saved).
            await self.profiles.closing(conversation_id, save=save)
            await self._let_go(conversation_id)
        await self.web_tools.close()
        await self.pool.stop(save_sessions=save)

    @property
    def capacity(self) -> int:
        return self.pool.config.max_sessions

    @property
    def live_sessions(self) -> int:
        return self.pool.load.live_sessions

    # -- holding sessions --------------------------------------------------------------------------------------

    async def acquire(self, conversation_id: int, *, run_id: int | None = None) -> Session:
        """The conversation's session on this worker (restored from its last save if it is not live here), started
        from its browser profile when it has one (workers.profiles). For a run (`run_id`): one that would write a
        profile another session writes raises ProfileInUseError, one whose starter may not use the profile
        ProfileRefusedError."""
        key = str(conversation_id)
        async with self.profiles.choosing(conversation_id):
            live = self.pool.get(key)
            load = await self.profiles.prepare(conversation_id, live, run_id=run_id)

            async def last_save() -> SavedSession | None:  # read only when the session is not live here
                saved = SavedSession.from_dict(
                    await database_sync_to_async(browser_session_state)(conversation_id=conversation_id)
                )
                if load is not None:  # the profile's storage, in the conversation's tabs
                    saved = dataclasses.replace(saved or SavedSession(), storage_state=load)
                return saved

            reopened = load is not None and live is not None and not live.closed
            if live is not None and reopened:
                session = await self._reopen(key, live, load or {})
            else:
                session = await self.pool.acquire(key, load_saved=last_save)
            self.profiles.started(conversation_id, session)
        answer_dialogs_with(session.context, NOBODY_TO_ASK)  # a run asks its user instead while it runs
        await self._hold(conversation_id)
        if reopened:
            await self.refresh_viewers(conversation_id)  # the live view follows the new session
        await self.web_tools.follow(conversation_id, session)
        return session

    async def _reopen(self, key: str, live: Session, storage_state: JsonObject) -> Session:
        """The open session again, its tabs as they are, on another storage state. Loading storage into a context
        whose pages the pool and the tools follow can hang (Playwright opens a page of its own for it), so the
        session is closed unsaved (its profile, if it wrote one, has had its last save) and opened anew."""
        kept = await live.save()  # its tabs; not through `_saved`, which would write this storage to the new profile
        await self.pool.close_session(key, save=False)
        return await self.pool.acquire(key, dataclasses.replace(kept, storage_state=storage_state))

    async def release(self, session: Session) -> None:
        await self.pool.release(session)
        conversation_id = int(session.key)
        if session.leases == 0 and conversation_id in self._profile_recheck:
            self._profile_recheck.discard(conversation_id)
            await self.profile_changed(conversation_id)

    async def _hold(self, conversation_id: int) -> None:
        async with self._lock:
            if conversation_id in self._held:
                return
            self._held.add(conversation_id)
        try:
            await asyncio.to_thread(placement.client().set, placement.session_home_key(conversation_id), self.worker_id)
            await self.refresh_viewers(conversation_id)
        except redis.RedisError as exc:
            # Redis is away: the run goes on; the heartbeat writes the session's home again when it is back.
            log.warning("could not record the session of conversation %s: %r", conversation_id, exc)
        await self.channel.attach(conversation_id)

    async def reassert_homes(self) -> None:
        """Write again where each held session lives (a restarted Redis has forgotten it), so turns come here."""
        if self._held:
            homes = {placement.session_home_key(cid): self.worker_id for cid in self._held}
            await asyncio.to_thread(placement.client().mset, homes)

    async def _let_go(self, conversation_id: int) -> None:
        async with self._lock:
            if conversation_id not in self._held:
                return
            self._held.discard(conversation_id)
        stream = self._streams.pop(conversation_id, None)
        if stream is not None:
            await stream.close()
        self._stream_locks.pop(conversation_id, None)
        self._input_locks.pop(conversation_id, None)
        self._last_saved.pop(conversation_id, None)
        self._last_tabs.pop(conversation_id, None)
        await self.web_tools.forget(conversation_id)
        home_key = placement.session_home_key(conversation_id)

        def clear_home() -> None:
            conn = placement.client()
            if conn.get(home_key) == self.worker_id.encode():
                conn.delete(home_key)

        await asyncio.to_thread(clear_home)
        await self.channel.detach(conversation_id)
        await self.profiles.closed(conversation_id)

    async def discard(self, conversation_id: int) -> None:
        """The conversation was deleted: close its browser session without saving it, and let go of it."""
        await self.pool.close_session(str(conversation_id), save=False)
        await self._let_go(conversation_id)

    async def sweep(self) -> None:
        """Let go of sessions the pool closed (reaped or evicted) since the last sweep."""
        for conversation_id in list(self._held):
            # A session being reopened on another profile is briefly out of the pool, and still held.
            if self.pool.get(str(conversation_id)) is None and not self.profiles.deciding(conversation_id):
                await self._let_go(conversation_id)

    # -- live view and input ------------------------------------------------------------------------------------

    async def refresh_viewers(self, conversation_id: int) -> None:
        """Stream frames while anyone watches; stop when the last viewer leaves."""
        # Viewers joining together must not start two streams of the same session.
        async with self._stream_locks.setdefault(conversation_id, asyncio.Lock()):
            await self._refresh_viewers(conversation_id)

    async def _refresh_viewers(self, conversation_id: int) -> None:
        session = self.pool.get(str(conversation_id))
        watching = await asyncio.to_thread(viewer_count, conversation_id=conversation_id) if session else 0
        stream = self._streams.get(conversation_id)
        if watching and session is not None and (stream is None or not stream.active):
            self._streams[conversation_id] = await session.screencast.subscribe(self._frame_sender(conversation_id))
        elif watching and session is not None and session.screencast.last_frame is not None:
            # Someone joined a stream already running: a still page sends no new frame, so send the last one.
            await self._frame_sender(conversation_id)(session.screencast.last_frame)
        elif not watching and stream is not None:
            self._streams.pop(conversation_id, None)
            await stream.close()

    def _frame_sender(self, conversation_id: int) -> Callable[[Frame], Awaitable[None]]:
        group = conversation_group(conversation_id)
        layer = get_channel_layer()

        async def send(frame: Frame) -> None:
            payload: FramePayload = {
                "data": base64.b64encode(frame.data).decode(),
                "width": frame.width,
                "height": frame.height,
                "tab": frame.tab_id,
                "ts": frame.ts_ms,
            }
            message: FrameMessage = {"type": "conversation.frame", "frame": payload}
            await layer.group_send(group, message)

        return send

    async def replay_input(self, conversation_id: int, raw: JsonObject) -> None:
        session = self.pool.get(str(conversation_id))
        if session is None:
            return
        try:
            # One event at a time, in the order they came: a click takes three CDP calls, and the text typed right
            # after it must not reach the page before the click has focused the field.
            async with self._input_locks.setdefault(conversation_id, asyncio.Lock()):
                await session.send_input(InputEvent.from_dict(raw))
        except InputError as exc:
            log.info("refused live-view input for conversation %s: %s", conversation_id, exc)
        except Exception:
            log.exception("live-view input failed for conversation %s", conversation_id)

    # -- page content ----------------------------------------------------------------------------------------------

    async def extract_tab(self, conversation_id: int, tab_id: str) -> None:
        """Read a tab's main content and save it with the tab in the conversation's context."""
        session = await self.acquire(conversation_id)
        try:
            try:
                page = session.tabs.get(tab_id).page
            except TabNotFoundError:
                extracted = without_text("", "empty", "That tab was closed.")
            else:
                # Saved whole: the model reads a long article page by page (get_page_content).
                extracted = await session.run(extract_page(page))
            await database_sync_to_async(tab_content_save)(
                conversation_id=conversation_id, tab_id=tab_id, extracted=extracted
            )
        finally:
            await self.release(session)

    # -- pool callbacks -------------------------------------------------------------------------------------------

    # -- browser profiles ---------------------------------------------------------------------------------------

    async def capture(self, conversation_id: int) -> JsonObject:
        """The conversation's browser storage as it is now (cookies, local storage, IndexedDB), for a profile."""
        session = await self.acquire(conversation_id)
        try:
            session.keep_indexed_db = True
            saved = await self.pool.save(str(conversation_id))  # the conversation's own save, too
            if session.storage_lent or saved.storage_lent:
                raise ApplicationError(LENT_NOT_CAPTURED, status_code=status.HTTP_409_CONFLICT)
            return saved.storage_state
        finally:
            await self.release(session)

    async def save_now(self, conversation_id: int) -> None:
        """Save the conversation's live session as it is now (into its profile too, while it writes one)."""
        await self.pool.save(str(conversation_id))

    async def profile_changed(self, conversation_id: int) -> None:
        """The conversation's profile was chosen, changed or dropped, or its chooser's share of it changed: an open
        session follows at once, or when the run using it ends (a share taken back does not cut a run short)."""
        live = self.pool.get(str(conversation_id))
        if live is None:
            return
        if live.leases > 0:
            self._profile_recheck.add(conversation_id)
            return
        await self.release(await self.acquire(conversation_id))

    async def keep_profiles(self) -> None:
        """At every heartbeat: renew the leases of sessions writing a profile, and close those idle long enough."""
        await self.profiles.renew()
        for conversation_id in self.profiles.idle_writers():
            await self.pool.close_session(str(conversation_id))  # saved back first
            await self._let_go(conversation_id)

    async def _saved(self, key: str, saved: SavedSession) -> None:
        conversation_id = int(key)
        if conversation_id in self._held and self._last_saved.get(conversation_id) == saved:
            return
        # A profile lent by someone else goes back into that profile only: the conversation keeps its tabs, and
        # nothing of the lender's sign-ins once the profile no longer applies.
        own = dataclasses.replace(saved, storage_state={}) if saved.storage_lent else saved
        await database_sync_to_async(browser_session_save)(conversation_id=conversation_id, state=own.as_dict())
        if conversation_id in self._held:
            self._last_saved[conversation_id] = saved
        await self.profiles.saved(conversation_id, saved.storage_state)

    async def _tabs_changed(self, key: str, tabs: list[TabInfo]) -> None:
        conversation_id = int(key)
        if self._last_tabs.get(conversation_id) != tabs:
            await database_sync_to_async(browser_session_set_tabs)(conversation_id=conversation_id, tabs=tabs)
            if conversation_id in self._held:
                self._last_tabs[conversation_id] = tabs
        # The inspector shows the active tab's tools: a switch or a navigation changes them.
        await self.web_tools.publish(int(key))

    async def _notice(self, key: str, notice: SessionNotice) -> None:
        """The pool closed tabs of this session (or put it away): the dashboard says so at once."""
        event: SessionNoticeEvent = {
            "type": "session.notice",
            "kind": notice.kind,
            "text": notice.text,
            "tab_id": notice.tab_id,
        }
        publish_now(int(key), event)

    async def _lost(self, keys: list[str]) -> None:
        for key in keys:
            await self._let_go(int(key))
