"""Every option within reach: the items of an open menu, listbox or autocomplete are listed one per line, each with
its own index and clickable; the container is not listed with its items' text run together; and what appeared since
the last list is listed first when the list is longer than its budget."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from browser_pool.actions import execute_action
from browser_pool.observe import get_elements
from tests.browser_pool.page.conftest import ContextTabs
from tests.browser_pool.page.helpers import index_of, line_of

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# A menu as autocomplete widgets build it: a focusable <ul> that handles its items' clicks with one listener, and
# <li><div> items with no role and no listener of their own.
DELEGATED_MENU = """
<label for="city">City</label> <input id="city">
<ul id="menu" tabindex="0" style="list-style:none"></ul>
<p id="out"></p>
<script>
  const menu = document.getElementById("menu");
  for (const city of ["Cairo", "Calgary", "Cannes"]) {
    const item = document.createElement("li");
    const wrapper = document.createElement("div");
    wrapper.tabIndex = -1;
    wrapper.textContent = city;
    item.append(wrapper);
    menu.append(item);
  }
  menu.addEventListener("click", (event) => {
    document.getElementById("out").textContent = "chose " + event.target.closest("li").textContent;
  });
</script>
"""


async def test_a_menu_that_handles_its_items_clicks_lists_each_item_and_not_itself(
    tabs: ContextTabs, page: Page
) -> None:
    await page.set_content(DELEGATED_MENU)

    listing = await get_elements(page)

    assert [item.text for item in listing.items] == ["City", "Cairo", "Calgary", "Cannes"]
    assert not any(" ul " in line for line in listing.lines), listing.text
    result = await execute_action(tabs, "click", {"index": index_of(listing, "Calgary")})
    assert result.ok, result.error
    assert await page.text_content("#out") == "chose Calgary"


async def test_a_focusable_menu_of_menuitems_is_not_a_target_of_its_own(page: Page) -> None:
    await page.set_content(
        '<button aria-expanded="true" id="b">Actions</button>'
        '<ul role="menu" tabindex="-1" aria-labelledby="b">'
        '<li role="menuitem">Copy</li><li role="menuitem">Rename</li><li role="menuitem">Delete</li></ul>'
    )

    listing = await get_elements(page)

    # Before, the menu was a line of its own named "Actions" like the button that opens it.
    assert [item.text for item in listing.items] == ["Actions", "Copy", "Rename", "Delete"]
    assert line_of(listing, "Rename").endswith('li role=menuitem "Rename"')


async def test_a_list_nobody_clicks_stays_one_element(page: Page) -> None:
    # Focusable for scrolling with the keyboard, no listener, no pointer: its lines of text are not targets.
    await page.set_content('<ul tabindex="0" aria-label="Log"><li>started</li><li>stopped</li></ul>')

    listing = await get_elements(page)

    assert [item.tag for item in listing.items] == ["ul"]


async def test_what_appeared_comes_first_when_the_list_is_over_its_budget(page: Page) -> None:
    await page.set_content(
        "<div style='display:grid;grid-template-columns:repeat(6,1fr)'>"
        + "".join(f"<button>Button number {n}</button>" for n in range(60))
        + "</div><ul id='menu' style='list-style:none;position:fixed;top:0;left:0;background:#fff'></ul>"
    )
    before = await get_elements(page, budget_chars=600)
    await page.evaluate(
        """() => {
          const menu = document.getElementById("menu");
          for (const name of ["First choice", "Second choice", "Third choice"]) {
            const item = document.createElement("li");
            item.textContent = name;
            item.onclick = () => {};
            menu.append(item);
          }
        }"""
    )

    after = await get_elements(page, budget_chars=600)

    # The menu is last in the document and the buttons fill the budget, yet the new items are listed (first in
    # line for the budget, in document order on the page), and the indices of what was left out are known.
    assert before.omitted > 0
    new = [line for line in after.lines if line.startswith("*[")]
    assert [line.split('"')[1] for line in new] == ["First choice", "Second choice", "Third choice"]
    assert after.lines[-3:] == new
    assert len(after.indices) == after.total == 63
    assert set(before.indices) < set(after.indices)
