"""What happened on the page while an action ran: navigations, popups, JavaScript dialogs.

Dialog policy. A dialog blocks the page until it is answered, and an agent cannot click one, so every JavaScript
dialog is answered here and its text is reported in the next ActionResult.dialog. An alert is accepted (the only way
on). A confirm, prompt or beforeunload is answered by the context's answerer (`answer_dialogs_with`): the user's
safety policy, which accepts it on an ordinary page and asks the user on a sensitive one; with no answerer nobody
can be asked, so it is dismissed. The page is blocked while its dialog is open, so a person has the action's own
time to answer: when the action ends first, the dialog is dismissed. Strangers share the worker, so what is kept is bounded: a dialog's text is cut
to `DialogLimits.text_chars`, and a page keeps the last `DialogLimits.texts_kept` texts until an action reports them
(an alert loop of large strings stays a few kilobytes).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass

from playwright.async_api import BrowserContext, Dialog, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.page_cdp import forget_page_cdp, page_cdp

_STOP_TIMEOUT_S = 2.0
# How long a popup a script opened may take to be announced, and how long its count may take to read.
_POPUP_ON_ITS_WAY_S = 3.0
_COUNT_TIMEOUT_S = 1.0
# The number of windows the page's scripts opened since the last read (the context's init script counts them).
_TAKE_WINDOWS_OPENED = """() => {
  const key = Symbol.for("hive.windowsOpened");
  const opened = window[key] || 0;
  if (opened) window[key] = 0;
  return opened;
}"""


@dataclass(frozen=True, slots=True)
class DialogLimits:
    texts_kept: int = 10  # per page, until an action reports them
    text_chars: int = 500  # of each dialog's message


@dataclass(frozen=True, slots=True)
class DialogInfo:
    """A dialog the page opened, as its answerer sees it (the message already cut)."""

    kind: str  # "alert" | "confirm" | "prompt" | "beforeunload"
    message: str
    url: str


@dataclass(frozen=True, slots=True)
class DialogAnswer:
    accept: bool
    note: str  # how it was answered, in the action's report: "answered automatically", "dismissed: …"


DialogAnswerer = Callable[[DialogInfo], Awaitable[DialogAnswer]]

_limits = DialogLimits()
_dialog_logs: weakref.WeakKeyDictionary[Page, _DialogLog] = weakref.WeakKeyDictionary()
_answerers: weakref.WeakKeyDictionary[BrowserContext, DialogAnswerer] = weakref.WeakKeyDictionary()
_watched_contexts: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
_questions: weakref.WeakKeyDictionary[Page, set[asyncio.Task[None]]] = weakref.WeakKeyDictionary()
_pending_answers: set[asyncio.Task[None]] = set()


def set_dialog_limits(limits: DialogLimits) -> None:
    """The worker's bounds (from its settings), for every page from now on."""
    global _limits
    _limits = limits


class _DialogLog:
    """A page's dialog texts not yet reported: the newest few, and how many older ones were left out."""

    def __init__(self) -> None:
        self.texts: deque[str] = deque(maxlen=max(1, _limits.texts_kept))
        self.left_out = 0

    def add(self, text: str) -> None:
        if len(self.texts) == self.texts.maxlen:
            self.left_out += 1
        self.texts.append(text)

    def take(self) -> list[str]:
        taken = list(self.texts)
        if self.left_out:
            taken.insert(0, f"{self.left_out} earlier dialogs not kept")
        self.texts.clear()
        self.left_out = 0
        return taken


def _cut(text: str) -> str:
    limit = _limits.text_chars
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"


def answer_dialogs_with(context: BrowserContext, answerer: DialogAnswerer | None) -> None:
    """Who answers the context's confirm, prompt and beforeunload dialogs from now on (None: nobody, they are
    dismissed). Every page of the context, present and future, is watched for dialogs."""
    if answerer is None:
        _answerers.pop(context, None)
    else:
        _answerers[context] = answerer
    if context not in _watched_contexts:
        _watched_contexts.add(context)
        context.on("page", ensure_dialog_handler)
    for page in context.pages:
        ensure_dialog_handler(page)


@contextlib.contextmanager
def dialogs_answered_by(context: BrowserContext, answerer: DialogAnswerer) -> Iterator[None]:
    """`answerer` answers the context's dialogs inside the block; the one before it after."""
    before = _answerers.get(context)
    answer_dialogs_with(context, answerer)
    try:
        yield
    finally:
        answer_dialogs_with(context, before)


def ensure_dialog_handler(page: Page) -> None:
    """Answer this page's dialogs by the policy above, remembering their text until the next action reports it."""
    if page in _dialog_logs:
        return
    log = _DialogLog()
    _dialog_logs[page] = log

    def on_dialog(dialog: Dialog) -> None:
        info = DialogInfo(dialog.type, _cut(dialog.message), page.url)
        task = asyncio.ensure_future(_answer(page, dialog, info, log))
        _pending_answers.add(task)
        task.add_done_callback(_pending_answers.discard)
        if dialog.type != "alert":
            asking = _questions.setdefault(page, set())
            asking.add(task)
            task.add_done_callback(asking.discard)

    page.on("dialog", on_dialog)


async def _answer(page: Page, dialog: Dialog, info: DialogInfo, log: _DialogLog) -> None:
    answerer = _answerers.get(page.context)
    answer = DialogAnswer(True, "answered automatically")
    try:
        if info.kind != "alert":
            answer = DialogAnswer(False, "dismissed: nobody could be asked")
            if answerer is not None:
                answer = await answerer(info)
    except asyncio.CancelledError:
        answer = DialogAnswer(False, "dismissed: the step ended before anyone answered")
    except Exception as exc:  # an answerer that fails does not let the dialog through
        answer = DialogAnswer(False, f"dismissed: it could not be judged ({exc.__class__.__name__})")
    log.add(f'{info.kind} "{info.message}" ({answer.note})')
    with contextlib.suppress(PlaywrightError):  # the page may have closed, or the dialog was answered elsewhere
        if not answer.accept:
            await dialog.dismiss()
        elif dialog.type == "prompt":
            await dialog.accept(dialog.default_value)
        else:
            await dialog.accept()


def take_dialogs(page: Page) -> list[str]:
    log = _dialog_logs.get(page)
    return log.take() if log is not None else []


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
        """Give a popup the action may have started a moment to arrive; returns as soon as one does. When a script
        of the page opened a window, the popup is on its way for sure and is waited for longer: on a busy machine
        the browser announces the new tab well after the click returned."""
        if self.page.is_closed():
            return
        opened = await _take_windows_opened(self.page)
        if self.popups:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_POPUP_ON_ITS_WAY_S if opened else grace_s):
                await self._popup_seen.wait()

    def start(self) -> None:
        ensure_dialog_handler(self.page)
        self.page.on("framenavigated", self._on_navigated)
        self.page.on("popup", self._on_popup)

    def stop(self) -> None:
        self.page.remove_listener("framenavigated", self._on_navigated)
        self.page.remove_listener("popup", self._on_popup)
        for page in (self.page, *self.popups):
            for question in list(_questions.get(page, ())):
                question.cancel()  # an unanswered dialog outlives no action: it is dismissed

    async def dialogs_settled(self) -> None:
        """Wait until the dialogs the action caused are answered (dismissed ones included)."""
        questions = [q for page in (self.page, *self.popups) for q in _questions.get(page, ())]
        if questions:
            await asyncio.gather(*questions, return_exceptions=True)

    async def settle(self, timeout_ms: int) -> None:
        """After a navigation the action caused, wait (briefly, never failing) for the new document to be parsed."""
        if self.navigations and not self.page.is_closed():
            with contextlib.suppress(PlaywrightError):
                await self.page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)
        for popup in self.popups:
            with contextlib.suppress(PlaywrightError):
                await popup.wait_for_load_state("domcontentloaded", timeout=timeout_ms)


async def _take_windows_opened(page: Page) -> int:
    """How many windows the page's scripts opened since the last call; 0 when the page cannot say (navigated away,
    busy, or without the counting init script)."""
    with contextlib.suppress(PlaywrightError, TimeoutError):
        async with asyncio.timeout(_COUNT_TIMEOUT_S):
            opened = await page.evaluate(_TAKE_WINDOWS_OPENED)
            return opened if isinstance(opened, int) else 0
    return 0


async def stop_page_scripts(page: Page) -> bool:
    """Interrupt a script that keeps the page busy (an endless loop), so the tab answers again."""
    session = page_cdp(page)
    if session is None:
        return False
    try:
        async with asyncio.timeout(_STOP_TIMEOUT_S):
            await session.send("Runtime.terminateExecution")
    except PlaywrightError:
        forget_page_cdp(page, session)
        return False
    except TimeoutError:
        return False
    return True
