"""Every option within reach, through the real agent loop and the pool's Chromium: after typing into an autocomplete
or a combobox, or opening a menu button, the options that appeared are in what the action (or a wait after it)
returned, one per line with an index each; the scripted model picks the second of three by its index without ever
calling get_elements, and the page says which one was chosen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agents import run_agent_turn
from browser_pool.session import Session
from tests.agents.support import RecordingSink, act, calls_made, observations, user_request
from tests.support.form_tasks import find, known_elements, parse_steps, task_config
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

NEW_LINE = re.compile(r"^\*\[(\d+)\] (\S+)(.*)$", re.MULTILINE)
OPTION = re.compile(r"^(?:li|option)\b|role=(?:option|menuitem)\b")
WAIT_MS = 3_000


def options_shown(request: dict[str, Any]) -> list[tuple[int, str]]:
    """The option-like lines that appeared (marked new) in what the actions after the first one returned."""
    found: list[tuple[int, str]] = []
    for text in observations(request)[1:]:
        for index, tag, rest in NEW_LINE.findall(text):
            line = f"{tag}{rest}"
            if OPTION.search(line) and all(int(index) != known for known, _ in found):
                found.append((int(index), line))
    return found


def second_option_picker(request: dict[str, Any]) -> Reply:
    """Open the options with the task's one quoted step, wait once if none showed yet, then click the second of
    the options that appeared, by its index; answer with the page's result."""
    words = user_request(request)
    url = re.search(r"On (http://\S+):\s", words)
    assert url is not None
    made = calls_made(request)
    if not made:
        return act("native", "navigate", {"url": url.group(1)})
    if made[-1] == "click" and len(made) > 2:
        result = re.search(r"Result: ([^\n]*)", observations(request)[-1])
        return Reply(content=f"Result: {result.group(1)}" if result else "CANNOT: no result on the page")
    if len(made) == 1:
        step = parse_steps(words[url.end() :])[0]
        found = find(known_elements(request), step)
        if isinstance(found, str):
            return Reply(content=f"CANNOT: {found}")
        if step.verb == "click":
            return act("native", "click", {"index": found[0]})
        return act("native", "type", {"index": found[0], "text": step.text})
    options = options_shown(request)
    if len(options) != 3:
        if made[-1] != "wait":
            return act("native", "wait", {"ms": WAIT_MS})
        return Reply(content=f"CANNOT: {len(options)} options shown: {options}")
    return act("native", "click", {"index": options[1][0]})


async def pick_second(server: ScriptedLLM, session: Session, site: str, page: str, steps: str) -> tuple[str, Any]:
    server.script(second_option_picker)
    await session.active_page.goto("about:blank")
    sink = RecordingSink()
    message = f'On {site}/options/{page}: {steps} Tell me the text after "Result:".'
    turn = await run_agent_turn(config=task_config(server, site), history=[("user", message)], tabs=session, sink=sink)
    return turn.reply, sink


@pytest.mark.parametrize(
    ("page", "steps", "expect"),
    [
        ("autocomplete_widget.html", 'type "Ca" into "Country", then choose the second.', "Result: ships to Cameroon"),
        (
            "combobox_listbox.html",
            'type "Ch" into "Flavour", then choose the second.',
            "Result: one scoop of Chocolate",
        ),
        ("menu_button.html", 'click "Actions", then choose the second.', "Result: Rename chosen"),
    ],
    ids=["autocomplete", "combobox", "menu-button"],
)
async def test_the_second_of_three_options_is_picked_by_its_index_without_a_look_up(
    model_server: ScriptedLLM, site: str, session: Session, page: str, steps: str, expect: str
) -> None:
    reply, sink = await pick_second(model_server, session, site, page, steps)

    actions = [step.action for step in sink.actions()]
    assert reply == expect, f"{reply}\ntools: {actions}"
    assert await session.active_page.text_content("#result") == expect
    assert "get_elements" not in actions
    # One line per option: no line holds two options' text run together (the container's name used to).
    sent = "\n".join(step.observation for step in sink.actions())
    for first, second in (("Cambodia", "Cameroon"), ("Cherry", "Chocolate"), ("Download", "Rename")):
        assert not any(first in line and second in line for line in sent.splitlines())


async def test_options_that_appear_during_a_wait_are_in_what_the_wait_returned(
    model_server: ScriptedLLM, site: str, session: Session
) -> None:
    # The menu shows 1.5 s after the last key, long after the type action returned.
    reply, sink = await pick_second(
        model_server, session, site, "autocomplete_widget.html?delay=1500", 'type "Ca" into "Country", then choose it.'
    )

    actions = sink.actions()
    assert reply == "Result: ships to Cameroon", [step.action for step in actions]
    assert [step.action for step in actions] == ["navigate", "type", "wait", "click"]
    typed, waited = actions[1].observation, actions[2].observation
    assert "Cameroon" not in typed
    assert re.search(r'^\*\[\d+\] li "Cambodia"$', waited, re.MULTILINE), waited
    assert re.search(r'^\*\[\d+\] li "Cameroon"$', waited, re.MULTILINE), waited
    assert re.search(r'^\*\[\d+\] li "Canada"$', waited, re.MULTILINE), waited
