"""What the model reads of the interactive elements after an action: the list on a new page, only what changed on the
same page."""

from __future__ import annotations

import dataclasses

from agents.observation import PageView, elements_change


def view(url: str, *lines: str) -> PageView:
    text = "\n".join([f"Interactive elements in view: {len(lines)}", *lines])
    return PageView(available=True, text="", url=url, elements_text=text, elements=lines)


BEFORE = view("https://shop.example/", '[1] input "Name"', '[2] input "Email"', '[3] button "Submit"')


def test_a_new_page_or_a_first_look_shows_the_whole_list() -> None:
    after = view("https://shop.example/done", '[7] link "Back"')
    assert elements_change(BEFORE, after) == after.elements_text
    assert elements_change(None, BEFORE) == BEFORE.elements_text


def test_on_the_same_page_only_what_appeared_changed_or_went_is_shown() -> None:
    after = view(
        "https://shop.example/", '[1] input "Name" value="Ada"', '*[4] button "Confirm"', '[3] button "Submit"'
    )
    assert elements_change(BEFORE, after) == "\n".join(
        [
            "Interactive elements in view that appeared or changed:",
            '[1] input "Name" value="Ada"',
            '*[4] button "Confirm"',
            "Gone from view: [2]",
        ]
    )


def test_nothing_changed_is_said_in_one_line_and_the_new_star_alone_is_no_change() -> None:
    again = view("https://shop.example/", '*[1] input "Name"', '[2] input "Email"', '[3] button "Submit"')
    assert elements_change(BEFORE, again) == "Interactive elements in view: as before."


def test_an_element_the_lists_budget_left_out_is_not_gone() -> None:
    # A menu appeared and took the budget's room: [2] and [3] are on the page still, only not listed this time.
    after = dataclasses.replace(
        view("https://shop.example/", '[1] input "Name"', '*[4] li "Paris"'), element_indices=frozenset({1, 2, 3, 4})
    )
    assert elements_change(BEFORE, after) == "\n".join(
        ["Interactive elements in view that appeared or changed:", '*[4] li "Paris"']
    )
    went = dataclasses.replace(after, element_indices=frozenset({1, 3, 4}))
    assert elements_change(BEFORE, went).endswith("Gone from view: [2]")
