"""A field's whole value within reach: the list keeps values short and says how to get the rest; details give the
whole value of text inputs, textareas, editable regions and multi-selects, exactly, in parts beyond a bound; a
password stays masked everywhere."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import (
    DETAILS_VALUE_CHARS,
    details_value_chars,
    get_element_details,
    get_elements,
    set_details_value_chars,
)
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of, line_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# What a copy gets wrong first: quotes, a backslash, line breaks, a tab, accents, a character outside the BMP, a
# control character.
PIECES = ["lorem", "ipsum", '"quoted"', "back\\slash", "\n", "\t", "café", "Zürich", "😀", "\x01", "<b>", "it's"]


def text_of(length: int, variant: int = 1) -> str:
    chosen = random.Random(variant)  # the same text for the same variant
    out = ""
    while len(out) < length:
        out += chosen.choice(PIECES) + " "
    return out[:length]


async def fill_value(page: Page, label: str, value: str) -> None:
    await page.evaluate("([label, value]) => { document.querySelector(`[aria-label='${label}']`).value = value; }",
                        [label, value])  # fmt: skip


@pytest.fixture
def part_chars() -> Iterator[None]:
    """The part size an operator set for the test, back to the default afterwards."""
    yield
    set_details_value_chars(DETAILS_VALUE_CHARS)


async def read_whole(page: Page, index: int) -> tuple[str, list[str]]:
    """The value as a model reads it through details, part after part, and what each part said of itself."""
    value, notes, start = "", [], 1
    while True:
        details = (await get_element_details(page, [index], value_from=start)).found[0]
        assert len(json.dumps(details.info.value, ensure_ascii=False)) <= details_value_chars() + 2
        value += details.info.value
        notes.append(details.value_part)
        if "the next part" not in details.value_part:
            return value, notes
        start = int(details.value_part.rsplit("value_from ", 1)[1])


async def test_a_62_character_value_is_short_in_the_list_and_whole_in_details(page: Page) -> None:
    value = "Orci lectus gravida quis nec. Egestas ultrices tellus blandit."
    assert len(value) == 62
    await page.set_content('<textarea aria-label="Source"></textarea>')
    await fill_value(page, "Source", value)

    listing = await get_elements(page)
    details = await get_element_details(page, [index_of(listing, "Source")])

    assert line_of(listing, "Source").endswith(
        'value="Orci lectus gravida quis nec. Egestas ultrices tellus bland…" (62 chars; get_element_details shows all)'
    )
    assert details.found[0].info.value == value
    assert details.found[0].as_dict()["value"] == value
    assert "value_part" not in details.found[0].as_dict()


@pytest.mark.parametrize("length", [5_000, 50_000])
async def test_a_long_value_is_read_exactly_in_parts_that_say_where_they_are(page: Page, length: int) -> None:
    value = text_of(length)
    await page.set_content('<textarea aria-label="Source"></textarea>')
    await fill_value(page, "Source", value)
    listing = await get_elements(page)

    read, notes = await read_whole(page, index_of(listing, "Source"))

    assert read == value
    assert f"({length} chars; get_element_details shows all)" in line_of(listing, "Source")
    if length == 5_000:
        assert notes == [""]  # whole in one answer
    else:
        # Parts of up to DETAILS_VALUE_CHARS as the model reads them (escapes count), without gap or overlap.
        assert len(notes) >= length // DETAILS_VALUE_CHARS + 1
        assert notes[0].startswith("characters 1–")
        assert notes[-1].endswith(f" of {length} (the end)")
        ends = [int(note.split("–")[1].split(" ")[0]) for note in notes]
        starts = [int(note.split("characters ")[1].split("–")[0]) for note in notes]
        assert starts == [1] + [end + 1 for end in ends[:-1]]


async def test_the_part_size_is_the_operators_setting(page: Page, part_chars: None) -> None:
    value = text_of(50_000, variant=2)
    await page.set_content('<textarea aria-label="Source"></textarea>')
    await fill_value(page, "Source", value)
    index = index_of(await get_elements(page), "Source")
    _, default_notes = await read_whole(page, index)

    set_details_value_chars(20_000)
    read, notes = await read_whole(page, index)

    assert read == value
    assert len(notes) < len(default_notes)
    first_end = int(notes[0].split("–")[1].split(" ")[0])
    assert first_end > DETAILS_VALUE_CHARS  # a first part larger than the default one
    with pytest.raises(ValueError, match="at least one character"):
        set_details_value_chars(0)


async def test_editable_regions_and_multi_selects_give_their_whole_value(page: Page) -> None:
    cities = [f"City number {n} of a long list" for n in range(12)]
    await page.set_content(
        '<div contenteditable="true" aria-label="Notes"></div>'
        '<select aria-label="Cities" multiple>'
        + "".join(f"<option selected>{city}</option>" for city in cities)
        + "</select>"
    )
    notes = "First line of the notes, long enough to be elided in a list.\nSecond line: “quoted” 😀"
    await page.evaluate("text => { document.querySelector('[contenteditable]').innerText = text; }", notes)
    listing = await get_elements(page)

    details = await get_element_details(page, [index_of(listing, "Notes"), index_of(listing, "Cities")])

    assert "get_element_details shows all" in line_of(listing, "Notes")
    assert details.found[0].info.value == notes
    assert details.found[1].info.value == ", ".join(cities)


async def test_a_password_stays_masked_in_the_list_and_in_details(page: Page) -> None:
    await page.set_content('<input type="password" aria-label="PIN" value="4096-hunter2">')
    await page.fill("[aria-label=PIN]", "typed-secret-9")

    listing = await get_elements(page)
    details = (await get_element_details(page, [index_of(listing, "PIN")])).found[0]

    shown = json.dumps([listing.text, details.as_dict()], ensure_ascii=False)
    assert "hunter2" not in shown
    assert "typed-secret" not in shown
    assert details.info.value == "•••"
    assert details.attributes["value"] == "•••"


async def test_values_of_one_answer_share_the_bound_and_a_character_is_never_cut_in_half(page: Page) -> None:
    await page.set_content('<input aria-label="One"><input aria-label="Two">')
    await fill_value(page, "One", "😀" * 500)
    await fill_value(page, "Two", "x" * 500)
    listing = await get_elements(page)

    one, two = (
        await get_element_details(page, [index_of(listing, "One"), index_of(listing, "Two")], value_chars=700)
    ).found

    assert one.info.value == "😀" * 500
    assert one.info.value_length == 0
    assert two.info.value == "x" * 360  # what the first left, and never less than a list line's worth in escapes
    assert two.value_part == (
        f"characters 1–360 of 500; the next part: get_element_details with indices [{two.info.index}] and value_from 361"
    )


async def test_the_action_reads_the_next_part_and_refuses_a_start_before_the_first(
    tabs: ContextTabs, page: Page
) -> None:
    value = text_of(25_000, variant=2)
    await page.set_content('<textarea aria-label="Source"></textarea>')
    await fill_value(page, "Source", value)
    index = index_of(await get_elements(page), "Source")

    first = await execute_action(tabs, "get_element_details", {"indices": [index]})
    note = first.data["elements"][0]["value_part"]
    start = int(note.rsplit("value_from ", 1)[1])
    second = await execute_action(tabs, "get_element_details", {"indices": [index], "value_from": start})
    wrong = await execute_action(tabs, "get_element_details", {"indices": [index], "value_from": 0})

    assert first.ok
    assert second.ok
    part = second.data["elements"][0]
    assert part["value"] == value[start - 1 : start - 1 + len(part["value"])]
    assert part["value_part"].startswith(f"characters {start}–")
    assert not wrong.ok
    assert wrong.error.startswith("invalid arguments for get_element_details: value_from:")
