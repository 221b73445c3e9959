"""What happened on the page while an action ran: navigations, popups, JavaScript dialogs.

Dialog policy. A dialog blocks the page until it is answered, and an agent cannot click one, so every
JavaScript dialog is answered at once and its text is reported in the next ActionResult.dialog:
alert and beforeunload are accepted (the only way on), confirm is accepted (the agent chose to click the
control that asks; consequential clicks are vetted by the agent's safety policy before they run), and prompt
is accepted with the page's default text. Dialogs from pages no action touched yet are dismissed by
Playwright's default.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref

from playwright.async_api import CDPSession, Dialog, Frame, Page
from playwright.async_api import Error as PlaywrightError

_dialog_logs: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()
_pending_answers: set[asyncio.Task[None]] = set()
_cdp_sessions: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()
_STOP_TIMEOUT_S = 2.0


def ensure_dialog_handler(page: Page) -> None:
    """Answer this page's dialogs by the policy above, remembering their text until the next action reports it."""
    if page in _dialog_logs:
        return
    log: list[str] = []
    _dialog_logs[page] = log

    def on_dialog(dialog: Dialog) -> None:
        log.append(f'{dialog.type} "{dialog.message}"')
        task = asyncio.ensure_future(_answer(dialog))
        _pending_answers.add(task)
        task.add_done_callback(_pending_answers.discard)

    page.on("dialog", on_dialog)


async def _answer(dialog: Dialog) -> None:
    with contextlib.suppress(PlaywrightError):  # the page may have closed, or the dialog was answered elsewhere
        if dialog.type == "prompt":
            await dialog.accept(dialog.default_value)
        else:
            await dialog.accept()


def take_dialogs(page: Page) -> list[str]:
    log = _dialog_logs.get(page)
    if not log:
        return []
    taken = list(log)
    log.clear()
    return taken


class PageWatch:
    """Records main-frame navigations and popups of one page between start() and stop()."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.url_before = page.url
        self.navigations = 0
        self.popups: list[Page] = []
        self._popup_seen = asyncio.Event()

    @property
    def navigated(self) -> bool:
        return self.navigations > 0 or self.page.url != self.url_before

    def _on_navigated(self, frame: Frame) -> None:
        if frame.parent_frame is None:
            self.navigations += 1

    def _on_popup(self, popup: Page) -> None:
        ensure_dialog_handler(popup)
        self.popups.append(popup)
        self._popup_seen.set()

    async def wait_for_popup(self, grace_s: float) -> None:
        """Give a popup the action may have started a moment to arrive; returns as soon as one does."""
        if self.popups or self.page.is_closed():
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace_s):
                await self._popup_seen.wait()

    def start(self) -> None:
        ensure_dialog_handler(self.page)
        self.page.on("framenavigated", self._on_navigated)
        self.page.on("popup", self._on_popup)

    def stop(self) -> None:
        self.page.remove_listener("framenavigated", self._on_navigated)
        self.page.remove_listener("popup", self._on_popup)

    async def settle(self, timeout_ms: int) -> None:
        """After a navigation the action caused, wait (briefly, never failing) for the new document to be parsed."""
        if self.navigations and not self.page.is_closed():
            with contextlib.suppress(PlaywrightError):
                await self.page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)
        for popup in self.popups:
            with contextlib.suppress(PlaywrightError):
                await popup.wait_for_load_state("domcontentloaded", timeout=timeout_ms)


async def prepare_script_stopper(page: Page) -> None:
    """Open the CDP session stop_page_scripts needs while the page still answers: attaching to a renderer
    that is stuck in a loop never completes."""
    if page in _cdp_sessions or page.is_closed():
        return
    with contextlib.suppress(PlaywrightError, TimeoutError):
        async with asyncio.timeout(_STOP_TIMEOUT_S):
            _cdp_sessions[page] = await page.context.new_cdp_session(page)


async def stop_page_scripts(page: Page) -> bool:
    """Interrupt a script that keeps the page busy (an endless loop), so the tab answers again."""
    session = _cdp_sessions.get(page)
    if session is None:
        return False
    try:
        async with asyncio.timeout(_STOP_TIMEOUT_S):
            await session.send("Runtime.terminateExecution")
    except (PlaywrightError, TimeoutError):
        return False
    return True
