"""type, press_key, select and upload_file, checked by reading the page back."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_type_replaces_the_content_by_default(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)

    result = await execute_action(tabs, "type", {"index": index_of(listing, "Full name"), "text": "Ada Lovelace"})

    assert result.ok, result.error
    assert await page.input_value("#name") == "Ada Lovelace"
    assert result.data["value"] == "Ada Lovelace"


async def test_type_can_append(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "type", {"index": index_of(listing, "About you"), "text": " world", "clear": False}
    )

    assert result.ok, result.error
    assert await page.input_value("#bio") == "Hello world"


async def test_type_into_an_editable_area_and_a_shadow_field(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)
    notes = await execute_action(tabs, "type", {"index": index_of(listing, "Notes"), "text": "Call Bob"})
    assert notes.ok, notes.error
    assert await page.text_content("#editor") == "Call Bob"

    await page.goto(f"{site}/shadow.html")
    listing = await get_elements(page)
    origin = next(item.index for item in listing.items if item.placeholder == "From")
    typed = await execute_action(tabs, "type", {"index": origin, "text": "Oslo"})
    clicked = await execute_action(tabs, "click", {"index": index_of(listing, "Search flights")})
    assert typed.ok
    assert clicked.ok
    assert await page.text_content("#out") == "searching Oslo"


async def test_human_like_typing_pauses_50_to_150_ms_between_keys(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.evaluate(
        """() => { window.keyTimes = [];
        document.getElementById('search').addEventListener('keydown', (e) => {
          if (e.key.length === 1) keyTimes.push(performance.now());  // characters, not the Delete that clears
        }); }"""
    )
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "type", {"index": index_of(listing, "Search"), "text": "lisbon", "human_like": True}
    )

    assert result.ok, result.error
    assert await page.input_value("#search") == "lisbon"
    times = await page.evaluate("keyTimes")
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    assert len(gaps) == 5
    assert min(gaps) >= 45
    assert max(gaps) <= 400  # 150 ms plus a busy machine's scheduling; a real bound, not a loop without pauses
    assert len({round(gap / 5) for gap in gaps}) > 1  # random, not a fixed delay


async def test_press_key_in_a_field_and_with_modifiers(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)
    await execute_action(tabs, "type", {"index": index_of(listing, "Search"), "text": "tokyo"})

    enter = await execute_action(tabs, "press_key", {"key": "Enter", "index": index_of(listing, "Search")})
    assert enter.ok, enter.error
    assert await page.text_content("#out") == "searched tokyo"

    shortcut = await execute_action(
        tabs, "press_key", {"key": "k", "modifiers": ["ctrl", "shift"], "index": index_of(listing, "Key log")}
    )
    assert shortcut.ok, shortcut.error
    assert await page.text_content("#out") == "ctrl+shift+K"

    written_as_one = await execute_action(tabs, "press_key", {"key": "Ctrl+A"})  # focus stays in the key log
    assert written_as_one.data["pressed"] == "Control+a"
    assert await page.text_content("#out") == "ctrl+a"


async def test_select_by_label_or_value(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/selects.html")
    listing = await get_elements(page)
    cabin = index_of(listing, "Cabin")

    by_label = await execute_action(tabs, "select", {"index": cabin, "label": "business CLASS"})
    assert by_label.ok, by_label.error
    assert await page.text_content("#out") == "cabin biz"  # the page's change handler ran

    by_value = await execute_action(tabs, "select", {"selector": "#cabin", "value": "first"})
    assert by_value.ok
    assert by_value.data["selected"] == "First"
    assert await page.input_value("#cabin") == "first"

    label_as_value = await execute_action(tabs, "select", {"index": cabin, "value": "Economy"})
    assert label_as_value.ok
    assert await page.input_value("#cabin") == "eco"


async def test_select_an_option_that_does_not_exist_lists_the_options(tabs: ContextTabs, page: Page, site: str) -> None:
    await page.goto(f"{site}/selects.html")
    listing = await get_elements(page)

    missing = await execute_action(tabs, "select", {"index": index_of(listing, "Cabin"), "label": "Premium"})
    custom = await execute_action(tabs, "select", {"index": index_of(listing, "Seat"), "label": "12A"})

    assert not missing.ok
    assert missing.error == f"element [{index_of(listing, 'Cabin')}] (select \"Cabin\") has no option 'Premium'"
    assert missing.suggestion == 'its options are: "Economy", "Business class", "First"'
    assert await page.input_value("#cabin") == "eco"
    assert not custom.ok
    assert "is not a <select> drop-down" in custom.error
    assert "click it and then click the option" in custom.suggestion


@pytest.fixture
def uploads(tmp_path: Path) -> dict[str, Path]:
    report = tmp_path / "report.txt"
    report.write_text("hello")
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xd9")
    return {"report.txt": report, "photo.jpg": photo}


async def test_upload_a_conversation_file(tabs: ContextTabs, page: Page, site: str, uploads: dict[str, Path]) -> None:
    await page.goto(f"{site}/upload.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "upload_file", {"index": index_of(listing, "Document"), "file_id": "report.txt"}, uploads=uploads
    )

    assert result.ok, result.error
    assert await page.text_content("#out") == "got report.txt:5"


async def test_upload_through_a_button_that_opens_the_chooser(
    tabs: ContextTabs, page: Page, site: str, uploads: dict[str, Path]
) -> None:
    await page.goto(f"{site}/upload.html")
    listing = await get_elements(page)

    result = await execute_action(
        tabs, "upload_file", {"index": index_of(listing, "Choose a photo"), "file_id": "photo.jpg"}, uploads=uploads
    )
    wrong = await execute_action(
        tabs, "upload_file", {"index": index_of(listing, "Not an upload"), "file_id": "photo.jpg"}, uploads=uploads
    )

    assert result.ok, result.error
    assert await page.text_content("#out") == "styled photo.jpg"
    assert not wrong.ok
    assert "is not a file input and clicking it opened no file chooser" in wrong.error


async def test_upload_refuses_files_the_user_did_not_upload(
    tabs: ContextTabs, page: Page, site: str, uploads: dict[str, Path]
) -> None:
    await page.goto(f"{site}/upload.html")
    listing = await get_elements(page)
    document = index_of(listing, "Document")

    for file_id in ("/etc/passwd", "../report.txt", "secrets.txt"):
        result = await execute_action(tabs, "upload_file", {"index": document, "file_id": file_id}, uploads=uploads)
        assert not result.ok
        assert result.error == (
            f"{file_id!r} is not one of the files uploaded to this conversation (available: photo.jpg, report.txt)"
        )
    no_uploads = await execute_action(tabs, "upload_file", {"index": document, "file_id": "report.txt"})
    assert not no_uploads.ok
    assert "(available: none)" in no_uploads.error
    assert await page.evaluate("document.getElementById('doc').files.length") == 0
