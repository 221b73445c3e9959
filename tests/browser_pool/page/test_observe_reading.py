"""What the model reads of a page is what a person reads (issue 12, items 1 and 2): the exact text and values, every
target with the name accname gives it, and the states a person sees."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page

from browser_pool.observe import get_element_details, get_elements, get_summary
from tests.browser_pool.page.helpers import index_of, line_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_the_text_keeps_line_breaks_and_leaves_out_field_contents(page: Page) -> None:
    await page.set_content(
        "<p>Flight AF 12<br>Gate <b>K</b>42</p><textarea>draft text</textarea><p>Seat <span hidden>9Z</span>4C</p>"
        '<p>Row<br>\n  <i>7</i></p><a href="/seat">Change<span style="position:absolute;width:1px;height:1px;'
        'overflow:hidden;clip:rect(0 0 0 0)"> seat for screen readers</span></a>'
    )

    summary = await get_summary(page)

    # A <br> is a line break; a textarea's content is its value, not page text; hidden words are left out, and so
    # is the text kept for screen readers only.
    assert summary.visible_text == "Flight AF 12\nGate K42\nSeat 4C\nRow\n7\nChange"


async def test_values_are_shown_exactly_quoted_and_escaped(page: Page) -> None:
    await page.set_content(
        '<input aria-label="Spaced" value="  two  spaces \\ and &quot;quotes&quot;  ">'
        '<textarea aria-label="Address">12 Main St\nSpringfield</textarea>'
        '<input aria-label="Long">'
    )
    await page.fill("[aria-label=Long]", "x" * 300)

    listing = await get_elements(page)

    spaced = line_of(listing, "Spaced")
    assert spaced.endswith(' value="  two  spaces \\\\ and \\"quotes\\"  "')
    assert json.loads(spaced.split("value=", 1)[1]) == '  two  spaces \\ and "quotes"  '
    assert line_of(listing, "Address").endswith('textarea "Address" value="12 Main St\\nSpringfield"')
    # A long value is elided with its whole length and where the rest is, so the model knows it is not all there.
    long = line_of(listing, "Long")
    assert 'x…" (300 chars; get_element_details shows all)' in long
    assert listing.by_index(index_of(listing, "Long")).value_length == 300  # type: ignore[union-attr]


async def test_names_follow_the_accname_rules(page: Page) -> None:
    await page.set_content(
        """
        <button aria-label="Close" aria-labelledby="dismiss">X</button><span id="dismiss">Dismiss dialog</span>
        <button>Save<span style="display:none"> draft</span></button>
        <button><img alt="Print"></button>
        <button><svg><title>Share</title></svg></button>
        <label>Country <select><option>France</option><option>Japan</option></select></label>
        <label>Pay <input type="checkbox"> with <input value="42" size="4"> euros</label>
        <input type="submit">
        <a href="/x">Read <em>more</em></a>
        <div role="listbox" aria-label="Cities"><div role="option">Oslo</div><div role="option">Rome</div></div>
        """
    )

    listing = await get_elements(page)
    names = [item.text for item in listing.items]

    assert "Dismiss dialog" in names  # aria-labelledby before aria-label
    assert "Save" in names  # hidden content is not part of the name
    assert "Print" in names
    assert "Share" in names
    assert line_of(listing, "Country").startswith(f'[{index_of(listing, "Country")}] select "Country"')
    # A field inside its label is left out of its own name; another embedded field counts by its value.
    assert 'input type=checkbox "Pay with 42 euros"' in line_of(listing, "type=checkbox")
    assert "Submit" in names  # an input submit without a value
    assert "Read more" in names
    # The options have lines of their own: the listbox says how many, not their text run together.
    assert line_of(listing, "Cities").endswith('div role=listbox "Cities" options(2)')
    assert line_of(listing, '"Oslo"').endswith('div role=option "Oslo"')


async def test_every_kind_of_target_is_listed(page: Page) -> None:
    await page.set_content(
        """
        <div role="grid"><div role="row"><div role="gridcell">Mon 3</div><div role="gridcell">Tue 4</div></div></div>
        <span id="prop">Assigned handler</span>
        <div id="down">Pressed on mousedown</div>
        <span tabindex="0">Focusable span</span>
        <div role="switch" aria-checked="true">Wi-Fi</div>
        <div role="menuitem">Rename</div>
        <div role="tab" aria-selected="true">Overview</div>
        <div role="combobox" aria-expanded="false" aria-label="City">Paris</div>
        <p>Just text</p>
        """
    )
    await page.evaluate(
        """() => {
          document.getElementById("prop").onclick = () => { document.title = "assigned"; };
          document.getElementById("down").addEventListener("pointerdown", () => {});
        }"""
    )

    listing = await get_elements(page)

    assert line_of(listing, "Mon 3").endswith('div role=gridcell "Mon 3"')
    assert line_of(listing, "Assigned handler").endswith('span "Assigned handler"')  # element.onclick = ...
    assert line_of(listing, "Pressed on mousedown")
    assert line_of(listing, "Focusable span")
    assert line_of(listing, "Wi-Fi").endswith('div role=switch "Wi-Fi" checked')
    assert line_of(listing, "Rename")
    assert line_of(listing, "Overview").endswith('div role=tab "Overview" selected')
    # A custom combobox is named by its label, and its content is its value.
    assert line_of(listing, "City").endswith('div role=combobox "City" value="Paris" collapsed')
    assert not any("Just text" in line for line in listing.lines)


async def test_states_a_person_sees_are_on_the_line(page: Page) -> None:
    await page.set_content(
        """
        <form>
          <input aria-label="Email" required>
          <input aria-label="Code" readonly value="A1">
          <div role="treeitem" aria-expanded="true" aria-selected="true">Documents</div>
          <button type="button" aria-pressed="true">Bold</button>
          <details><summary>More options</summary><p>hidden until open</p></details>
          <select aria-label="Toppings" multiple><option selected>Ham</option><option>Egg</option></select>
          <div contenteditable="true" aria-label="Notes">First line<br>second</div>
          <button disabled>Send</button>
        </form>
        """
    )
    await page.focus("[aria-label=Email]")

    listing = await get_elements(page)

    assert line_of(listing, "Email").endswith('input "Email" required focused')
    assert line_of(listing, "Code").endswith('input "Code" value="A1" readonly')
    assert line_of(listing, "Documents").endswith('div role=treeitem "Documents" selected expanded')
    assert line_of(listing, "Bold").endswith('button type=button "Bold" pressed')
    assert line_of(listing, "More options").endswith('summary "More options" collapsed')
    assert line_of(listing, "Toppings").endswith('value="Ham" options(2)="Ham|Egg" multiple')
    assert line_of(listing, "Notes").endswith('div "Notes" editable value="First line\\nsecond"')
    assert line_of(listing, "Send").endswith('button type=submit "Send" disabled')

    await page.click("summary")
    assert " expanded" in line_of(await get_elements(page), "More options")


async def test_long_option_lists_say_how_many_and_details_list_them_all(page: Page) -> None:
    await page.set_content(
        "<select aria-label='Airport'>"
        + "".join(
            f"<option value='{n}'>Airport number {n} with a rather long descriptive name</option>" for n in range(250)
        )
        + "</select>"
    )

    listing = await get_elements(page)
    line = line_of(listing, "Airport")
    details = await get_element_details(page, [index_of(listing, "Airport")])

    # Whole labels (never cut mid-way at a fixed width), then the count of the rest and where to see them.
    assert "options(250)=" in line
    assert '="Airport number 0 with a rather long descriptive name|Airport number 1 with' in line
    shown = len(json.loads(line.split("options(250)=", 1)[1].split(" +", 1)[0]).split("|"))
    assert line.endswith(f" +{250 - shown} more (get_element_details lists all)")
    assert len(line) < 300
    options = details.found[0].info.options
    assert len(options) == 250
    assert options[-1] == "Airport number 249 with a rather long descriptive name"


async def test_text_and_names_inside_shadow_roots(page: Page) -> None:
    await page.set_content(
        """
        <p>Before</p>
        <fare-card><span slot="price">€ 42</span></fare-card>
        <icon-button role="button" tabindex="0"></icon-button>
        <script>
          customElements.define("fare-card", class extends HTMLElement {
            constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML =
              "<div>Paris to <b>Rome</b></div><div>Fare: <slot name='price'></slot></div>"; }
          });
          customElements.define("icon-button", class extends HTMLElement {
            constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<span>Book</span> <i>now</i>"; }
          });
        </script>
        """
    )

    summary = await get_summary(page)
    listing = await get_elements(page)

    assert summary.visible_text == "Before\nParis to Rome\nFare: € 42\nBook now"
    assert line_of(listing, "Book now").endswith('icon-button role=button "Book now"')


async def test_script_made_targets_inside_a_same_origin_frame(page: Page, site: str) -> None:
    await page.goto(f"{site}/next.html")
    await page.set_content(
        """<iframe srcdoc='<span id="go">Continue</span><span>Plain</span>
          <script>document.getElementById("go").addEventListener("click", () => { document.title = "went"; })</script>'>
        </iframe>"""
    )
    frame = page.frame_locator("iframe")
    await frame.locator("#go").wait_for()

    listing = await get_elements(page)

    go = listing.by_index(index_of(listing, "Continue"))
    assert go is not None
    assert go.in_frame
    assert not any("Plain" in line for line in listing.lines)


async def test_a_list_handling_its_items_clicks_lists_the_items(page: Page) -> None:
    await page.set_content(
        """
        <input placeholder="City">
        <ul id="suggestions"><li><div>Paris</div></li><li><div>Rome</div></li></ul>
        <ul style="cursor: pointer"><li><a href="/home">Home</a></li><li><a href="/about">About</a></li></ul>
        <div role="checkbox" aria-checked="mixed">All files</div>
        <script>
          document.getElementById("suggestions").addEventListener("click", (e) => { document.title = e.target.textContent; });
        </script>
        """
    )

    listing = await get_elements(page)

    # An autocomplete menu that listens on the list (delegation): each suggestion is a target of its own.
    assert line_of(listing, "Paris").endswith('li "Paris"')
    assert line_of(listing, "Rome").endswith('li "Rome"')
    assert not any("Paris Rome" in line for line in listing.lines)
    # Items holding their own links are not listed again.
    assert [item.tag for item in listing.items if item.text == "Home"] == ["a"]
    assert line_of(listing, "All files").endswith('div role=checkbox "All files" mixed')
