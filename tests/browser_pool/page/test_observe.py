"""The three observation layers on real pages: what the model reads, and that indices mean the same element."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from browser_pool.observe import get_element_details, get_elements, get_summary, observe
from tests.browser_pool.page.helpers import index_of, line_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_summary_gives_the_page_at_a_glance(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.focus("#email")

    summary = await get_summary(page)

    assert summary.url == f"{site}/forms.html"
    assert summary.title == "Sign up"
    assert summary.viewport == (1280, 800)
    assert summary.page_size[1] > 2400  # the far button sits below a tall margin
    # Hidden "Secret" is not counted; the far-away button is (it is rendered, just off screen).
    assert summary.counts == {"buttons": 4, "inputs": 9, "links": 2, "selects": 1, "images": 0, "forms": 1}
    # Block boundaries are line breaks, as a person sees them.
    assert summary.visible_text.startswith("Create your account\nFill in the form to join the flight club.\n")
    assert "Far away" not in summary.visible_text
    listing = await get_elements(page)
    assert summary.focused is not None
    assert summary.focused.tag == "input"
    assert listing.by_index(summary.focused.index or -1) is not None
    assert listing.by_index(summary.focused.index or -1).placeholder == "Email"  # type: ignore[union-attr]
    rendered = summary.render()
    assert "Elements: 4 buttons, 9 inputs, 2 links, 1 select, 1 form" in rendered
    assert f"Focused: [{summary.focused.index}] input" in rendered


async def test_summary_follows_scrolling_and_names_open_dialogs(page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    assert (await get_summary(page)).dialogs == ["Cookie consent"]

    await page.goto(f"{site}/forms.html")
    await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    summary = await get_summary(page)

    assert summary.scroll == (0, summary.page_size[1] - 800)
    assert "Far away" in summary.visible_text
    assert "Create your account" not in summary.visible_text


async def test_element_lines_carry_what_the_model_needs(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.fill("#email", "a@b.c")

    listing = await get_elements(page)

    assert line_of(listing, '"Full name"').endswith(' input "Full name" value="Old name"')
    assert 'input type=email placeholder="Email" value="a@b.c"' in line_of(listing, "Email")
    # A field with neither label nor placeholder is named by its name attribute; a password is never shown.
    assert line_of(listing, "password").endswith(' input type=password name="password" value="•••"')
    assert line_of(listing, "Pay now").endswith('button "Pay now" disabled')
    assert 'value="Choose…" options(4)="Choose…|France|Germany|Japan"' in line_of(listing, "Country")
    assert line_of(listing, "Promo code").endswith("readonly")
    assert 'input type=checkbox "I accept the terms"' in line_of(listing, "terms")
    assert 'a "Next page" href=/next.html' in line_of(listing, "Next page")
    assert "Secret" not in listing.text  # display:none
    assert "Far away" not in listing.text  # below the viewport


async def test_the_whole_page_list_marks_elements_out_of_view(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    listing = await get_elements(page, "button", visible_only=False)

    assert [item.text for item in listing.items] == ["Create account", "Pay now", "Vanish", "Far away"]
    assert line_of(listing, "Far away").endswith('button "Far away" offscreen')
    assert not listing.by_index(index_of(listing, "Far away")).visible  # type: ignore[union-attr]
    assert listing.text.startswith("Button elements on the page: 4")


async def test_a_small_page_is_listed_whole_and_a_large_one_in_view(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    everything = await get_elements(page, visible_only=False)

    small = await get_elements(page, whole_page_up_to=everything.total)
    assert small.text.startswith(f"Interactive elements on the page: {everything.total}")
    assert line_of(small, "Far away").endswith('button "Far away" offscreen')  # below the fold, yet listed

    large = await get_elements(page, whole_page_up_to=everything.total - 1)
    assert large.text.startswith("Interactive elements in view:")
    assert "Far away" not in large.text

    cramped = await get_elements(page, whole_page_up_to=everything.total, budget_chars=200)  # the list does not fit
    assert cramped.text.startswith("Interactive elements in view:")


async def test_type_filters(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    links = await get_elements(page, "link")
    selects = await get_elements(page, "select")

    assert [item.text for item in links.items] == ["Next page", "Jump"]
    assert [item.options for item in selects.items] == [["Choose…", "France", "Germany", "Japan"]]


async def test_indices_stay_with_their_elements_and_new_ones_are_marked(page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    first = await get_elements(page)
    assert not any(item.new for item in first.items)  # a first look marks nothing

    await page.click("#add")
    await get_summary(page)  # an agent step in between must not eat the "new" marks
    second = await get_elements(page)

    for text in ("Item 1", "Item 2", "Add item", "Remove first"):
        assert index_of(second, text) == index_of(first, text)
    added = second.by_index(index_of(second, "Item 3"))
    assert added is not None
    assert added.new
    assert index_of(second, "Item 3") not in {item.index for item in first.items}
    assert line_of(second, "Item 3").startswith(f"*[{added.index}] button")
    assert "(* = new since the last list)" in second.text
    assert [item.text for item in second.items if item.new] == ["Item 3"]

    await page.click("#remove")
    third = await get_elements(page)
    assert "Item 1" not in [item.text for item in third.items]
    assert index_of(third, "Item 2") == index_of(first, "Item 2")
    assert not any(item.new for item in third.items)


async def test_shadow_dom_elements_are_listed_in_place(page: Page, site: str) -> None:
    await page.goto(f"{site}/shadow.html")

    listing = await get_elements(page)

    texts = [item.text or item.placeholder for item in listing.items]
    assert texts == ["Light button", "From", "Search flights", "Deep button", "After widget"]
    assert listing.by_index(index_of(listing, "Deep button")).in_shadow  # type: ignore[union-attr]
    assert [item.index for item in listing.items] == sorted(item.index for item in listing.items)


async def test_iframe_elements_are_listed_with_top_level_boxes(page: Page, site: str) -> None:
    await page.goto(f"{site}/frames.html")
    frame = page.frame_locator("#pay")
    await frame.locator("#confirm").wait_for()

    listing = await get_elements(page)

    confirm = listing.by_index(index_of(listing, "Confirm payment"))
    assert confirm is not None
    assert confirm.in_frame
    box = await frame.locator("#confirm").bounding_box()
    assert box is not None
    assert (confirm.rect.x, confirm.rect.y) == (round(box["x"]), round(box["y"]))
    assert confirm.rect.x >= 215  # iframe left 200 + border 5 + the child's body margin 10


async def test_elements_clipped_by_a_scroll_panel_are_not_in_view(page: Page, site: str) -> None:
    await page.goto(f"{site}/scroll.html")

    listing = await get_elements(page, "button")

    # The 200 px panel shows about 7 of its 100 rows of 30 px; the rest lie inside the viewport but are clipped.
    shown = [item.text for item in listing.items]
    assert shown[0] == "Row 1"
    assert 6 <= len(shown) <= 8


async def test_the_budget_cuts_long_lists_with_a_note(page: Page, site: str) -> None:
    await page.goto(f"{site}/long_list.html?n=3000")

    listing = await get_elements(page, visible_only=False, budget_chars=2000)

    assert listing.total == 6300  # 3000 links, 3000 buttons, 300 quantity fields
    assert sum(len(line) + 1 for line in listing.lines) <= 2000
    assert listing.text.endswith(
        f"… {6300 - len(listing.items)} more elements, use get_elements with a filter "
        "(type=button|input|link|select) or scroll"
    )
    inputs = await get_elements(page, "input", visible_only=False, budget_chars=50_000)
    assert inputs.total == 300
    assert inputs.omitted == 0
    assert {item.type for item in inputs.items} == {"number"}


async def test_details_give_a_unique_selector_and_xpath(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    listing = await get_elements(page)
    wanted = {index_of(listing, "Country"): "country", index_of(listing, "Create account"): "submit"}
    wanted[index_of(listing, "I accept the terms")] = "terms"

    details = await get_element_details(page, list(wanted))

    assert not details.missing
    for entry in details.found:
        expected_id = wanted[entry.info.index]
        assert entry.selector_unique
        assert await page.locator(entry.selector).count() == 1
        assert await page.locator(entry.selector).get_attribute("id") == expected_id
        found = await page.evaluate(
            "x => document.evaluate(x, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue.id",
            entry.xpath,
        )
        assert found == expected_id
    country = next(entry for entry in details.found if entry.attributes.get("id") == "country")
    assert country.attributes == {"id": "country", "name": "country", "aria-label": "Country"}
    assert country.child_count == 4
    assert "Create account" in country.parent_text


async def test_details_in_shadow_roots_and_frames_are_unique_in_their_root(page: Page, site: str) -> None:
    await page.goto(f"{site}/shadow.html")
    listing = await get_elements(page)
    deep = (await get_element_details(page, [index_of(listing, "Deep button")])).found[0]
    assert deep.shadow_hosts == ["flight-search", "inner-widget"]
    assert deep.xpath == ""  # XPath cannot enter a shadow root
    matched = await page.evaluate(
        """sel => Array.from(document.querySelector('flight-search').shadowRoot.querySelector('inner-widget')
              .shadowRoot.querySelectorAll(sel)).map(e => e.id)""",
        deep.selector,
    )
    assert matched == ["deep"]

    await page.goto(f"{site}/frames.html")
    await page.frame_locator("#pay").locator("#card").wait_for()
    listing = await get_elements(page)
    card_index = next(item.index for item in listing.items if item.placeholder == "Card number")
    card_details = (await get_element_details(page, [card_index])).found[0]
    assert card_details.frames == ["#pay"]
    assert await page.frame_locator("#pay").locator(card_details.selector).get_attribute("id") == "card"


async def test_details_of_a_removed_element_say_it_is_gone(page: Page, site: str) -> None:
    await page.goto(f"{site}/dynamic.html")
    listing = await get_elements(page)
    item_1 = index_of(listing, "Item 1")
    await page.click("#remove")

    details = await get_element_details(page, [item_1, index_of(listing, "Item 2"), 9999])

    assert [entry.attributes["id"] for entry in details.found] == ["item-2"]
    assert "no longer exists on the page" in details.missing[item_1]
    assert details.missing[9999].startswith("there is no element [9999]")


async def test_a_5000_element_page_is_observed_in_a_short_summary(page: Page, site: str) -> None:
    """How fast is bench/observation.py's to say (it times the same page); here, what the model gets of it."""
    await page.goto(f"{site}/long_list.html?n=2400")  # 2,400 links + 2,400 buttons + 240 inputs
    await observe(page)  # first call pays for installing the page model

    observation = await observe(page)

    assert observation.summary.counts["links"] + observation.summary.counts["buttons"] == 4800
    assert len(observation.render()) < 4000


async def test_the_text_is_what_a_person_reads(page: Page) -> None:
    await page.set_content(
        '<p>Enter "<b>Bernardine</b>" in the box</p><div>Then <span>press</span>, <i>Go</i></div>'
        '<ul><li>one</li><li>two</li></ul><p style="display:none">hidden</p><p>  spaced   out  </p>'
    )
    summary = await get_summary(page)
    assert summary.visible_text == 'Enter "Bernardine" in the box\nThen press, Go\none\ntwo\nspaced out'


async def test_elements_a_page_made_clickable_by_script_or_style_are_listed(page: Page, site: str) -> None:
    await page.goto(f"{site}/targets.html")

    listing = await get_elements(page)
    names = list(listing.lines)

    # Tree nodes and autocomplete suggestions with click listeners, and the div styled as a button (once, not
    # its bold label again); the paragraph and the containers around the targets are not targets.
    for text in ("Documents", "Pictures", "Paris", "Rome", "Search flights"):
        assert sum(text in name for name in names) == 1, (text, names)
    assert not any("Just text" in name for name in names)
    assert len(names) == 6, names  # the five above and the City box

    summary = await get_summary(page)
    assert summary.counts["buttons"] == 5

    await page.click("#s-rome")
    assert await page.title() == "clicked Rome"


async def test_controls_without_a_label_are_named_by_the_text_beside_them(page: Page, site: str) -> None:
    await page.goto(f"{site}/labels.html")

    listing = await get_elements(page)

    assert line_of(listing, "Passenger name").endswith('input "Passenger name"')
    assert line_of(listing, "Apples").endswith('input type=number "Apples"')  # its row's header
    assert '"Item"' in line_of(listing, 'input "Item"')  # its column's header
    assert sum(line.endswith('input "Item"') for line in listing.lines) == 1
    assert 'select "Seat preference"' in line_of(listing, "Seat preference")  # its fieldset's legend
    # In a form, what a button does: reset the form, or submit it.
    assert line_of(listing, "Clear").endswith('button type=reset "Clear"')
    assert line_of(listing, "Book").endswith('button type=submit "Book"')
