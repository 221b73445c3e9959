"""A page's own dialogs on a shared worker, in a real Chromium: on a sensitive page a confirm or beforeunload is the
user's to answer (dismissed without a yes, or when nobody can be asked), on an ordinary page it is accepted; and an
alert loop of large strings keeps a few bounded texts, not all of them."""

from __future__ import annotations

import asyncio
import resource
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from agents.safety import SafetyConfig, SafetyPolicy, dialog_answerer
from browser_pool.actions import execute_action
from browser_pool.actions.watch import DialogInfo, dialogs_answered_by
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of
from tests.support.browsers import launch_browser
from tests.support.static_server import serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PAGE = """<!doctype html><title>{title}</title><h1>{title}</h1>
<button onclick="out.textContent = confirm('Charge 500 EUR to your card?') ? 'charged' : 'cancelled'">Continue</button>
<button onclick="for (let i = 0; i < 300; i++) alert('x'.repeat(200000) + i); out.textContent = 'done'">Loop</button>
<a href="elsewhere.html" onclick="">Leave</a>
<input id="field" placeholder="Note" oninput="window.onbeforeunload = () => 'unsaved'">
<p id="out"></p>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("dialogs")
    for folder, title in (("checkout", "Your order"), ("blog", "A post about gardening")):
        (root / folder).mkdir()
        (root / folder / "index.html").write_text(PAGE.format(title=title))
        (root / folder / "elsewhere.html").write_text("<title>Elsewhere</title><p>Elsewhere</p>")
    with serve_directory(root) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with launch_browser() as chromium:
        yield chromium


@pytest_asyncio.fixture(loop_scope="module")
async def tabs(browser: Browser) -> AsyncIterator[ContextTabs]:
    context = await browser.new_context()
    control = ContextTabs(context)
    await control.open_tab()
    yield control
    await context.close()


class User:
    """Stands for the person a confirmation reaches: answers yes or no, possibly after a while, or never."""

    def __init__(self, answer: bool | None, after_s: float = 0.0) -> None:
        self.answer = answer
        self.after_s = after_s
        self.asked: list[tuple[DialogInfo, str]] = []

    async def __call__(self, dialog: DialogInfo, reason: str) -> bool:
        self.asked.append((dialog, reason))
        if self.answer is None:
            await asyncio.Event().wait()  # nobody answers
        await asyncio.sleep(self.after_s)  # a person takes a moment to read and decide
        return bool(self.answer)


async def click(tabs: ContextTabs, page: Page, text: str, timeout_ms: int = 5000) -> tuple[str, str]:
    result = await execute_action(
        tabs, "click", {"index": index_of(await get_elements(page), text)}, timeout_ms=timeout_ms
    )
    assert result.ok, result.error
    return result.dialog, str(await page.text_content("#out"))


@pytest.mark.parametrize(
    ("answer", "out", "note"),
    [(True, "charged", "accepted: the user said yes"), (False, "cancelled", "dismissed: no yes")],
)
async def test_a_confirm_on_a_sensitive_page_is_the_users_to_answer(
    tabs: ContextTabs, site: str, answer: bool, out: str, note: str
) -> None:
    page = tabs.active_page
    await page.goto(f"{site}/checkout/")
    user = User(answer, after_s=0.5)
    with dialogs_answered_by(page.context, dialog_answerer(SafetyPolicy(SafetyConfig()), user, timeout_s=10)):
        dialog, shown = await click(tabs, page, "Continue")
    assert shown == out
    assert dialog == f'confirm "Charge 500 EUR to your card?" ({note})'
    [(asked, reason)] = user.asked
    assert (asked.kind, asked.message, asked.url) == ("confirm", "Charge 500 EUR to your card?", page.url)
    assert "sensitive page" in reason
    assert "checkout" in reason


async def test_without_a_yes_in_time_or_anyone_to_ask_it_is_dismissed(tabs: ContextTabs, site: str) -> None:
    page = tabs.active_page
    await page.goto(f"{site}/checkout/")
    policy = SafetyPolicy(SafetyConfig())
    with dialogs_answered_by(page.context, dialog_answerer(policy, User(None), timeout_s=0.5)):
        dialog, shown = await click(tabs, page, "Continue")
    assert (shown, dialog.endswith("(dismissed: no yes)")) == ("cancelled", True)
    # Nobody answers before the step's own time is up: the page is not left blocked, the dialog is dismissed.
    with dialogs_answered_by(page.context, dialog_answerer(policy, User(None), timeout_s=60)):
        result = await execute_action(
            tabs, "click", {"index": index_of(await get_elements(page), "Continue")}, timeout_ms=500
        )
    assert not result.ok
    assert "dismissed: the step ended before anyone answered" in result.dialog
    assert await page.text_content("#out") == "cancelled"
    with dialogs_answered_by(page.context, dialog_answerer(policy, None, timeout_s=10)):
        dialog, shown = await click(tabs, page, "Continue")
    assert shown == "cancelled"
    assert "nobody could be asked" in dialog


async def test_an_ordinary_pages_confirm_is_accepted_without_asking(tabs: ContextTabs, site: str) -> None:
    page = tabs.active_page
    await page.goto(f"{site}/blog/")
    user = User(False)
    with dialogs_answered_by(page.context, dialog_answerer(SafetyPolicy(SafetyConfig()), user, timeout_s=10)):
        dialog, shown = await click(tabs, page, "Continue")
    assert (shown, user.asked) == ("charged", [])
    assert dialog.endswith("(answered automatically)")


async def test_leaving_a_sensitive_page_with_beforeunload_is_the_users_to_allow(tabs: ContextTabs, site: str) -> None:
    page = tabs.active_page
    await page.goto(f"{site}/checkout/")
    await execute_action(tabs, "type", {"selector": "#field", "text": "x"})
    user = User(False)
    with dialogs_answered_by(page.context, dialog_answerer(SafetyPolicy(SafetyConfig()), user, timeout_s=10)):
        result = await execute_action(tabs, "click", {"index": index_of(await get_elements(page), "Leave")})
    assert [asked.kind for asked, _ in user.asked] == ["beforeunload"]
    assert "beforeunload" in result.dialog
    assert "dismissed" in result.dialog
    assert page.url == f"{site}/checkout/", "the page was not left"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def test_an_alert_loop_of_large_strings_keeps_a_few_short_texts(tabs: ContextTabs, site: str) -> None:
    page = tabs.active_page
    await page.goto(f"{site}/blog/")
    before = _rss_mb()
    dialog, shown = await click(tabs, page, "Loop", timeout_ms=60_000)
    assert shown == "done"
    entries = dialog.split("; ")
    assert entries[0] == "290 earlier dialogs not kept"
    assert len(entries) == 11
    assert all(len(entry) < 600 for entry in entries), "each text is cut"
    assert entries[-1].endswith("299 (answered automatically)") is False  # the end of a long text is cut off
    # 300 alerts of 200 KB passed through: kept, they would be 60 MB more (the peak RSS of this process).
    assert _rss_mb() - before < 40
