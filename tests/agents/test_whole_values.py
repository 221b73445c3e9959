"""A field's whole value within reach of the model, through the real agent loop and the pool's Chromium: a scripted
model that sees a long value's line say "get_element_details shows all" reads the value there, part after part for
the longest, types each part into another field, and the page confirms the copy is exact."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from agents import run_agent_turn
from browser_pool.session import Session
from tests.agents.support import RecordingSink, act, calls_made, observations, user_request
from tests.support.form_tasks import Step, find, known_elements, parse_steps, task_config, tool_schema
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

FENCED = re.compile(r'<untrusted_page_data source="get_element_details result">\n(.*)\n</untrusted_page_data>', re.S)
PLAN = re.compile(r"Source is \[(\d+)\], copy is \[(\d+)\], check is \[(\d+)\]\.")
NEXT_PART = re.compile(r"the next part: get_element_details with indices \[(\d+)\] and value_from (\d+)")


def details_read(text: str) -> dict[str, Any]:
    """The one element a get_element_details result describes."""
    found = FENCED.search(text)
    assert found is not None, text[:500]
    elements: list[dict[str, Any]] = json.loads(found.group(1))["elements"]
    return elements[0]


def stated_plan(request: dict[str, Any]) -> re.Match[str] | None:
    """The indices the model said it would use, in its own earlier words (they outlive the element lists, which
    the agent summarises once they are a few steps old)."""
    said = "\n".join(
        str(message.get("content") or "") for message in request["messages"] if message["role"] == "assistant"
    )
    return PLAN.search(said)


def value_copier(request: dict[str, Any]) -> Reply:
    """Copy one field's value into another, as the element list says it can be had: read it with get_element_details
    (offered through more_tools), part after part as each result says, typing each part as it is read."""
    words = user_request(request)
    url = re.search(r"On (http://\S+):\s", words)
    assert url is not None
    made = calls_made(request)
    if not made:
        return act("native", "navigate", {"url": url.group(1)})
    plan = stated_plan(request)
    if plan is None:
        copy, check = parse_steps(words[url.end() :])  # copy: from `text` into `target`
        known = known_elements(request)
        found = [find(known, Step("type", target=copy.text)), find(known, Step("type", target=copy.target))]
        found.append(find(known, check))
        if any(isinstance(one, str) for one in found):
            return Reply(content=f"CANNOT: {found}")
        (source_index, source_line), (target_index, _), (button_index, _) = (
            one for one in found if not isinstance(one, str)
        )
        if "get_element_details shows all" not in source_line:
            return Reply(content=f"CANNOT: the list shows all of it already: {source_line}")
        said = f"Source is [{source_index}], copy is [{target_index}], check is [{button_index}]."
        if tool_schema(request, "get_element_details") is None:
            return Reply(content=said, tool_calls=[{"name": "more_tools", "arguments": {}}])
        return Reply(
            content=said, tool_calls=[{"name": "get_element_details", "arguments": {"indices": [source_index]}}]
        )
    source, target, button = (int(plan.group(n)) for n in (1, 2, 3))
    last = observations(request)[-1]
    if made[-1] == "more_tools":
        return act("native", "get_element_details", {"indices": [source]})
    if made[-1] == "get_element_details":
        part = details_read(last)
        return act("native", "type", {"index": target, "text": part["value"], "clear": "type" not in made})
    if made[-1] == "type":
        details = [
            text for text, name in zip(observations(request), made, strict=True) if name == "get_element_details"
        ]
        following = NEXT_PART.search(details_read(details[-1]).get("value_part", ""))
        if following:
            return act("native", "get_element_details",
                       {"indices": [int(following.group(1))], "value_from": int(following.group(2))})  # fmt: skip
        return act("native", "click", {"index": button})
    result = re.search(r"Result: ([^\n]*)", last)
    return Reply(content=f"Result: {result.group(1)}" if result else "CANNOT: no result on the page")


@pytest.mark.parametrize("chars", [62, 5_000, 50_000])
async def test_the_model_copies_a_whole_value_read_through_details(
    model_server: ScriptedLLM, site: str, session: Session, chars: int
) -> None:
    model_server.script(value_copier)
    await session.active_page.goto("about:blank")
    sink = RecordingSink()
    message = f'On {site}/values/copy.html?chars={chars}: copy the value of "Source" into "Copy", then click "Check".'
    config = task_config(model_server, site)

    turn = await run_agent_turn(config=config, history=[("user", message)], tabs=session, sink=sink)

    actions = [step.action for step in sink.actions()]
    expect = f"Result: exact copy of {chars} characters"
    assert await session.active_page.text_content("#result") == expect, f"{turn.reply}\ntools: {actions}"
    assert turn.reply.endswith(expect)
    reads = actions.count("get_element_details")
    assert (reads == 1) == (chars <= 5_000), actions  # one answer holds 5,000 characters; 50,000 come in parts
    assert actions.count("type") == reads
    # Each part came whole: the agent never cut a result (it keeps `observation_max_chars` of one).
    assert not any("more characters)" in step.observation for step in sink.actions()), actions
    # The PIN field's value stays masked in everything the model was sent.
    assert not any("hunter2" in json.dumps(request) for request in model_server.requests)
