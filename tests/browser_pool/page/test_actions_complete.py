"""The actions a person has (issue 12, item 3): clicks with keys held, double and right clicks, several options of a
multi-select at once, and clear refusals for what cannot be done."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of, line_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# A list where Ctrl adds to the selection and Shift extends it, as in a file manager; and a box that says which
# kind of click it got.
LIST_PAGE = """
<ul role="listbox" aria-label="Files" aria-multiselectable="true">
  <li role="option" aria-selected="false">a.txt</li><li role="option" aria-selected="false">b.txt</li>
  <li role="option" aria-selected="false">c.txt</li><li role="option" aria-selected="false">d.txt</li>
</ul>
<div id="box" style="width:200px;height:80px;background:#eee">Click me</div>
<p id="log"></p>
<script>
  const items = [...document.querySelectorAll("[role=option]")];
  let anchor = 0;
  items.forEach((item, i) => item.addEventListener("click", (e) => {
    if (e.shiftKey) items.forEach((o, j) => o.setAttribute("aria-selected", String(j >= Math.min(anchor, i) && j <= Math.max(anchor, i))));
    else if (e.ctrlKey || e.metaKey) item.setAttribute("aria-selected", String(item.getAttribute("aria-selected") !== "true"));
    else { items.forEach((o) => o.setAttribute("aria-selected", "false")); item.setAttribute("aria-selected", "true"); anchor = i; }
  }));
  const box = document.getElementById("box"), log = document.getElementById("log");
  const say = (e) => { log.textContent = e.type + (e.altKey ? " alt" : "") + " button " + e.button; };
  box.addEventListener("dblclick", say);
  box.addEventListener("contextmenu", (e) => { e.preventDefault(); say(e); });
  box.addEventListener("click", say);
</script>
"""


async def selected_files(tabs: ContextTabs) -> list[str]:
    listing = await get_elements(tabs.active_page)
    return [item.text for item in listing.items if item.role == "option" and item.selected]


async def test_clicks_with_ctrl_and_shift_select_several_items(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(LIST_PAGE)
    listing = await get_elements(page)
    # Each option has its own line; the listbox says how many there are and that several can be chosen.
    assert line_of(listing, "Files").endswith('ul role=listbox "Files" options(4) multiple')

    await execute_action(tabs, "click", {"index": index_of(listing, "a.txt")})
    ctrl = await execute_action(tabs, "click", {"index": index_of(listing, "c.txt"), "modifiers": ["ctrl"]})
    assert ctrl.ok, ctrl.error
    assert ctrl.data["click"] == "Control+left"
    assert await selected_files(tabs) == ["a.txt", "c.txt"]
    assert line_of(await get_elements(page), 'option "c.txt"').endswith('li role=option "c.txt" selected')

    shift = await execute_action(tabs, "click", {"index": index_of(listing, "d.txt"), "modifiers": ["shift"]})
    assert shift.ok, shift.error
    assert await selected_files(tabs) == ["a.txt", "b.txt", "c.txt", "d.txt"]


async def test_double_and_right_clicks_on_elements_and_points(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(LIST_PAGE)
    box = index_of(await get_elements(page), "Click me")

    double = await execute_action(tabs, "click", {"index": box, "double": True})
    assert double.ok, double.error
    assert await page.text_content("#log") == "dblclick button 0"

    right = await execute_action(tabs, "click", {"index": box, "button": "right"})
    assert right.ok, right.error
    assert await page.text_content("#log") == "contextmenu button 2"

    # At a point, with Alt held: the page sees the key.
    rect = await page.locator("#box").bounding_box()
    assert rect is not None
    point = {"x": rect["x"] + 20, "y": rect["y"] + 20}
    alt = await execute_action(tabs, "click", {**point, "modifiers": ["alt"]})
    assert alt.ok, alt.error
    assert await page.text_content("#log") == "click alt button 0"
    # The key is released afterwards.
    await execute_action(tabs, "click", point)
    assert await page.text_content("#log") == "click button 0"


async def test_click_options_are_checked(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(LIST_PAGE)

    wrong_key = await execute_action(tabs, "click", {"selector": "#box", "modifiers": ["control"]})
    wrong_button = await execute_action(tabs, "click", {"selector": "#box", "button": "back"})

    assert not wrong_key.ok
    assert (
        wrong_key.error
        == "invalid arguments for click: modifiers.0: 'control' is not one of ['ctrl', 'alt', 'shift', 'meta']"
    )
    assert not wrong_button.ok
    assert "button: 'back' is not one of ['left', 'right', 'middle']" in (wrong_button.error or "")


async def test_select_several_options_of_a_multi_select(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(
        """<select aria-label="Toppings" multiple onchange="document.title = [...this.selectedOptions].map(o => o.value)">
          <option value="ham" selected>Ham</option><option value="egg">Egg</option><option value="olive">Olives</option>
        </select>
        <select aria-label="Size"><option>Small</option><option>Large</option></select>"""
    )
    listing = await get_elements(page)
    toppings = index_of(listing, "Toppings")

    several = await execute_action(tabs, "select", {"index": toppings, "labels": ["Egg", "olives"]})

    assert several.ok, several.error
    assert several.data["selected"] == ["Egg", "Olives"]
    assert await page.title() == "egg,olive"  # the others are deselected
    assert 'value="Egg, Olives"' in line_of(await get_elements(page), "Toppings")

    one_box = await execute_action(tabs, "select", {"index": index_of(listing, "Size"), "labels": ["Small", "Large"]})
    assert not one_box.ok
    assert one_box.error == f'element [{index_of(listing, "Size")}] (select "Size") takes one option, not 2'
    missing = await execute_action(tabs, "select", {"index": toppings, "labels": ["Egg", "Anchovies"]})
    assert missing.error == f"element [{toppings}] (select \"Toppings\") has no option 'Anchovies'"
    assert missing.suggestion == 'its options are: "Ham", "Egg", "Olives"'
    both = await execute_action(tabs, "select", {"index": toppings, "label": "Egg", "labels": ["Ham"]})
    assert both.error == "give exactly one of value, label or labels"


async def test_a_missing_option_of_a_long_list_says_how_many_there_are(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(
        "<select aria-label='Year'>" + "".join(f"<option>{1900 + n}</option>" for n in range(120)) + "</select>"
    )

    result = await execute_action(tabs, "select", {"selector": "select", "label": "1850"})

    assert not result.ok
    assert result.suggestion is not None
    assert result.suggestion.startswith('its 120 options begin: "1900", "1901",')
    assert result.suggestion.endswith('"1929"; get_element_details lists them all')


async def test_type_into_a_rich_text_editor(tabs: ContextTabs, page: Page) -> None:
    await page.set_content(
        '<p>Comment</p><div role="textbox" contenteditable="true" aria-multiline="true"><p>Dear <b>team</b>,</p></div>'
    )
    editor = index_of(await get_elements(page), "Comment")  # named by the caption before it

    appended = await execute_action(tabs, "type", {"index": editor, "text": " thanks!", "clear": False})
    assert appended.ok, appended.error
    assert appended.data["value"] == "Dear team, thanks!"
    replaced = await execute_action(tabs, "type", {"index": editor, "text": "Hello"})
    assert replaced.ok, replaced.error

    assert line_of(await get_elements(page), "Comment").endswith(
        'div role=textbox "Comment" editable value="Hello" focused'
    )


async def test_typing_a_long_text_reports_its_whole_length(tabs: ContextTabs, page: Page) -> None:
    await page.set_content('<textarea aria-label="Letter"></textarea>')

    result = await execute_action(tabs, "type", {"selector": "textarea", "text": "word " * 100})

    assert result.ok, result.error
    assert result.data["value_length"] == 500
    assert result.data["value"].endswith("…")
    assert len(result.data["value"]) == 200
