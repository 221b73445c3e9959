"""One browser, two strangers: what one session copies is never what another pastes, by any road a page, an agent
or a person at the live view has; copying and pasting inside one session (across its tabs) keeps working.

Two sessions of one pool stand for two users on one worker. Session A holds a token; session B tries every way to
get it: keys (Control+V, Shift+Insert), a middle click, execCommand('paste'), navigator.clipboard.readText, the
permission API, and a page that wipes its own listeners (document.open) to meet the browser's clipboard bare.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Page

from browser_pool.actions import ACTIONS, execute_action, perform
from browser_pool.config import BrowserConfig
from browser_pool.input import InputEvent
from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.support.static_server import serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

TOKEN = "tok-A-7c1f9e2b"
PAGES = {
    "token.html": f"""<!doctype html><title>Token</title>
<input id=token value="{TOKEN}" style="width:400px"><input id=password type=password value="hunter2-{TOKEN}">
<button id=write onclick="navigator.clipboard.writeText('written-{TOKEN}')">Copy with the Clipboard API</button>
<button id=exec onclick="const t = document.getElementById('token'); t.select(); document.execCommand('copy')">
  Copy with execCommand</button>
<script>window.copies = 0; document.addEventListener("copy", () => copies++);</script>""",
    "paste.html": """<!doctype html><title>Paste</title>
<textarea id=box style="position:absolute; left:0; top:0; width:600px; height:200px"></textarea>
<script>
  window.pasted = [];
  document.addEventListener("paste", (e) => pasted.push(e.clipboardData.getData("text/plain")));
</script>""",
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("clipboard-pages")
    for name, body in PAGES.items():
        (folder / name).write_text(body)
    with serve_directory(folder) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    pool = BrowserPool(BrowserConfig(max_sessions=4, warm_contexts=0))
    await pool.start()
    try:
        yield pool
    finally:
        await pool.stop(save_sessions=False)


@pytest_asyncio.fixture(loop_scope="module")
async def strangers(pool: BrowserPool, pages: str) -> AsyncIterator[tuple[Session, Session]]:
    """A (the token's owner, on the token page) and B (a stranger, on the paste page), each a session of its own."""
    a, b = await pool.acquire("user-a"), await pool.acquire("user-b")
    await a.active_page.goto(f"{pages}/token.html")
    await b.active_page.goto(f"{pages}/paste.html")
    try:
        yield a, b
    finally:
        await pool.close_session("user-a", save=False)
        await pool.close_session("user-b", save=False)


async def copy_token_by_keys(page: Page) -> None:
    await page.click("#token")
    await page.keyboard.press("Control+A")
    await page.keyboard.press("Control+C")


async def pasted_into(page: Page, paste: str = "Control+V") -> str:
    """What a paste puts into the page's text box (and what its paste handlers saw), once the paste is done."""
    await page.fill("#box", "")
    await page.evaluate("window.pasted = []")
    await page.click("#box")
    if paste == "middle":
        await page.mouse.click(50, 50, button="middle")
    else:
        await page.keyboard.press(paste)
    await page.wait_for_function("window.pasted.length > 0")  # the paste handlers ran
    seen = await page.evaluate("window.pasted.join('|')")
    return f"{await page.input_value('#box')}|{seen}"


async def test_copy_by_keys_is_pasted_in_the_same_session_only(strangers: tuple[Session, Session], pages: str) -> None:
    a, b = strangers
    await copy_token_by_keys(a.active_page)
    for paste in ("Control+V", "Shift+Insert", "middle"):
        assert TOKEN not in await pasted_into(b.active_page, paste), f"{paste} in another session got the token"
    second_tab = await a.open_tab(f"{pages}/paste.html")
    assert second_tab.id != ""
    assert await pasted_into(a.active_page) == f"{TOKEN}|{TOKEN}", "a's own other tab pastes what a copied"


async def test_what_page_scripts_copy_stays_in_their_session(strangers: tuple[Session, Session], pages: str) -> None:
    a, b = strangers
    token_page = a.active_page
    await a.open_tab(f"{pages}/paste.html")
    for button, copied in (("#write", f"written-{TOKEN}"), ("#exec", TOKEN)):
        await token_page.click(button)
        assert TOKEN not in await pasted_into(b.active_page)
        assert await pasted_into(a.active_page) == f"{copied}|{copied}"


async def test_no_page_reads_the_clipboard_without_a_paste(strangers: tuple[Session, Session]) -> None:
    a, b = strangers
    await copy_token_by_keys(a.active_page)
    page = b.active_page
    read = await page.evaluate("navigator.clipboard.readText().then(t => 'read ' + t, e => 'refused ' + e.name)")
    assert read == "refused NotAllowedError"
    permission = await page.evaluate("navigator.permissions.query({name: 'clipboard-read'}).then(s => s.state)")
    assert permission == "denied"
    await page.focus("#box")
    assert await page.evaluate("document.execCommand('paste')") is False
    assert await page.input_value("#box") == ""


async def test_a_page_that_wipes_its_listeners_still_gets_only_its_own_sessions_clipboard(
    strangers: tuple[Session, Session],
) -> None:
    a, b = strangers
    await copy_token_by_keys(a.active_page)
    await a.active_page.click("#token")  # the token stays selected: the selection clipboard a middle click pastes
    await a.active_page.keyboard.press("Control+A")
    # document.open() drops every listener of the window, Hive's first; the new document listens before anyone.
    await b.active_page.evaluate(
        """() => {
          document.open();
          document.write(`<textarea id=box style="position:absolute; left:0; top:0; width:600px; height:200px">
            </textarea><script>window.pasted = [];
            addEventListener("paste", (e) => pasted.push(e.clipboardData.getData("text/plain")), true);<\\/script>`);
          document.close();
        }"""
    )
    for paste in ("Control+V", "middle"):
        assert TOKEN not in await pasted_into(b.active_page, paste)


async def test_a_password_field_is_never_copied(strangers: tuple[Session, Session], pages: str) -> None:
    a, _ = strangers
    await copy_token_by_keys(a.active_page)
    await a.active_page.click("#password")
    await a.active_page.keyboard.press("Control+A")
    await a.active_page.keyboard.press("Control+C")
    await a.open_tab(f"{pages}/paste.html")
    assert "hunter2" not in await pasted_into(a.active_page)


async def test_a_field_hive_typed_a_secret_into_is_never_copied(strangers: tuple[Session, Session], pages: str) -> None:
    a, _ = strangers
    await copy_token_by_keys(a.active_page)
    page = a.active_page
    await page.evaluate("document.body.insertAdjacentHTML('beforeend', '<input id=secret>')")
    typed = await perform(a, ACTIONS["type"], ACTIONS["type"].typed(
        {"selector": "#secret", "text": f"vault-{TOKEN}", "conceal": True}))  # fmt: skip
    assert typed.ok, typed.error
    await page.click("#secret")
    await page.keyboard.press("Control+A")
    await page.keyboard.press("Control+C")
    await a.open_tab(f"{pages}/paste.html")
    assert "vault-" not in await pasted_into(a.active_page)


async def live_key(session: Session, key: str, *modifiers: str) -> None:
    await session.send_input(InputEvent.from_dict({"kind": "key", "key": key, "modifiers": list(modifiers)}))


async def test_live_view_keys_copy_and_paste_within_the_session_only(
    strangers: tuple[Session, Session], pages: str
) -> None:
    a, b = strangers
    # A person at a's live view: click the token field, select all, copy.
    await a.send_input(InputEvent.from_dict({"kind": "click", "x": 100 / 1280, "y": 15 / 800}))
    await live_key(a, "a", "control")
    await live_key(a, "c", "control")

    async def pasted_live(session: Session, *, middle: bool = False) -> str:
        page = session.active_page
        await page.fill("#box", "")
        await page.evaluate("window.pasted = []")
        await session.send_input(InputEvent.from_dict({"kind": "click", "x": 100 / 1280, "y": 50 / 800}))
        if middle:
            box = {"kind": "click", "x": 100 / 1280, "y": 50 / 800, "button": "middle"}
            await session.send_input(InputEvent.from_dict(box))
        else:
            await live_key(session, "v", "control")
        await page.wait_for_function("window.pasted.length > 0")
        return f"{await page.input_value('#box')}|{await page.evaluate('window.pasted.join()')}"

    assert TOKEN not in await pasted_live(b)
    assert TOKEN not in await pasted_live(b, middle=True)
    await a.open_tab(f"{pages}/paste.html")
    assert await pasted_live(a) == f"{TOKEN}|{TOKEN}"


async def test_the_agents_key_presses_copy_and_paste_within_the_session_only(
    strangers: tuple[Session, Session], pages: str
) -> None:
    a, b = strangers
    for step in ({"selector": "#token", "key": "a", "modifiers": ["ctrl"]}, {"key": "c", "modifiers": ["ctrl"]}):
        assert (await execute_action(a, "press_key", step)).ok
    pasted = await execute_action(b, "press_key", {"selector": "#box", "key": "v", "modifiers": ["ctrl"]})
    assert pasted.ok, pasted.error
    await b.active_page.wait_for_function("window.pasted.length > 0")
    assert TOKEN not in await b.active_page.input_value("#box")
    await a.open_tab(f"{pages}/paste.html")
    assert (await execute_action(a, "press_key", {"selector": "#box", "key": "v", "modifiers": ["ctrl"]})).ok
    await a.active_page.wait_for_function("window.pasted.length > 0")
    assert await a.active_page.input_value("#box") == TOKEN
