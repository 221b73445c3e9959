"""What holds for every turn, checked with hypothesis against the real loop and the scripted model server: the page
is in the prompt, reasoning shows exactly when asked for, tool calls and failures are recorded, observations come
before the next decision, an abort halts at once, and without a browser every tool still answers readably.

Plans (topological order, cycles rejected) are checked in test_tools.py.
"""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import Tool, ToolContext, ToolOutput, run_agent_turn
from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.agents.support import NoBrowser, RecordingSink, config, last_observation, observations
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
words = st.text(st.characters(codec="utf-8", categories=("L", "N", "Zs")), min_size=1, max_size=40).map(str.strip)
words = words.filter(bool)


def echo_tool(received: list[dict[str, Any]]) -> Tool:
    schema = {
        "type": "object",
        "properties": {"text": {"type": "string"}, "count": {"type": "integer"}},
        "required": ["text", "count"],
        "additionalProperties": False,
    }

    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        received.append(arguments)
        return ToolOutput(text=f"echo #{arguments['count']}: {arguments['text']}")

    return Tool("echo", "Echo a text.", schema, handler, read_only=True)


def raising_tool(message: str) -> Tool:
    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        raise ValueError(message)

    return Tool("break_things", "Always fails.", {"type": "object", "properties": {}}, handler)


@pytest.fixture(scope="module")
def server(scripted_llm_server: ScriptedLLM) -> ScriptedLLM:
    return scripted_llm_server


def scripted(server: ScriptedLLM, handler: Any) -> None:
    server.reset()
    server.script(handler)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_session(pool: BrowserPool) -> AsyncIterator[Session]:
    session = await pool.acquire("agent-properties")
    yield session
    await pool.close_session("agent-properties", save=False)


@pytest.mark.browser
@FAST
@given(title=words, text=words, request=words)
async def test_the_page_context_is_in_the_prompt(
    server: ScriptedLLM, shared_session: Session, title: str, text: str, request: str
) -> None:
    await shared_session.active_page.set_content(
        f"<title>{html.escape(title)}</title><p>{html.escape(text)}</p>", wait_until="domcontentloaded"
    )
    scripted(server, lambda r: Reply(content="ok"))
    await run_agent_turn(
        config=config(server.base_url), history=[("user", request)], tabs=shared_session, sink=RecordingSink()
    )
    prompt = "\n".join(str(m["content"]) for m in server.requests[0]["messages"])
    page_part = prompt.split("<untrusted_page_data", 1)[1]
    assert " ".join(title.split()) in page_part
    assert " ".join(text.split()) in page_part
    assert request in prompt


@FAST
@given(reasoning=words, show=st.booleans(), with_call=st.booleans())
async def test_reasoning_is_visible_exactly_when_enabled(
    server: ScriptedLLM, reasoning: str, show: bool, with_call: bool
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if with_call and not last_observation(request):
            return Reply(content=reasoning, tool_calls=[{"name": "echo", "arguments": {"text": "a", "count": 1}}])
        return Reply(content="answer", reasoning=reasoning)

    scripted(server, handler)
    sink = RecordingSink()
    result = await run_agent_turn(
        config=config(server.base_url, show_reasoning=show), history=[("user", "q")], tabs=NoBrowser(), sink=sink,
        extra_tools=[echo_tool([])],
    )  # fmt: skip
    thoughts = [step for step in sink.steps if step.kind == "thought"]
    if show:
        assert thoughts
        assert all(step.observation.strip() for step in thoughts)
        assert any(reasoning in step.observation for step in thoughts)
    else:
        assert thoughts == []
    assert result.reply.endswith("answer")


@FAST
@given(text=st.text(max_size=60), count=st.integers(-(10**6), 10**6))
async def test_tool_flow_params_execution_result_and_log(server: ScriptedLLM, text: str, count: int) -> None:
    arguments = {"text": text, "count": count}
    scripted(
        server,
        lambda r: Reply(content="done") if last_observation(r) else Reply(tool_calls=[{"name": "echo", "arguments": arguments}]),
    )  # fmt: skip
    received: list[dict[str, Any]] = []
    sink = RecordingSink()
    await run_agent_turn(
        config=config(server.base_url), history=[("user", "q")], tabs=NoBrowser(), sink=sink, extra_tools=[echo_tool(received)]
    )  # fmt: skip
    assert received == [arguments]  # (a) parameters taken from the call, (b) executed once
    assert f"echo #{count}: {text}" in last_observation(server.requests[1])  # (c) the result is in the context
    (step,) = sink.actions()
    assert (step.action, step.arguments) == ("echo", arguments)  # (d) logged with name and parameters


@FAST
@given(message=st.text(min_size=1, max_size=80))
async def test_a_failure_gives_an_error_and_a_suggestion(server: ScriptedLLM, message: str) -> None:
    scripted(
        server,
        lambda r: Reply(content="sorry") if last_observation(r) else Reply(tool_calls=[{"name": "break_things", "arguments": {}}]),
    )  # fmt: skip
    sink = RecordingSink()
    result = await run_agent_turn(
        config=config(server.base_url), history=[("user", "q")], tabs=NoBrowser(), sink=sink, extra_tools=[raising_tool(message)]
    )  # fmt: skip
    observation = last_observation(server.requests[1])
    assert observation.startswith(f"Error: break_things failed: ValueError: {message}\nSuggestion: ")
    assert observation.split("\nSuggestion: ", 1)[1].strip()
    assert result.reply == "sorry"  # the turn went on


@FAST
@given(texts=st.lists(words, min_size=1, max_size=5), summary=st.booleans())
async def test_observations_precede_each_next_action_and_the_turn_ends_with_a_summary(
    server: ScriptedLLM, texts: list[str], summary: bool
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        done = len(observations(request))
        if done < len(texts):
            return Reply(tool_calls=[{"name": "echo", "arguments": {"text": texts[done], "count": done}}])
        return Reply(content="All echoed." if summary else "")

    scripted(server, handler)
    sink = RecordingSink()
    result = await run_agent_turn(
        config=config(server.base_url), history=[("user", "q")], tabs=NoBrowser(), sink=sink, extra_tools=[echo_tool([])]
    )  # fmt: skip
    for n, request in enumerate(server.requests[1:]):
        assert f"echo #{n}: {texts[n]}" in observations(request)[-1]
    # Every step was finished (its observation reported) before the next model call was made.
    model_calls = [i for i, event in enumerate(sink.events) if event == "model_call"]
    finishes = [i for i, event in enumerate(sink.events) if event.startswith("finish:action")]
    assert all(finish < call for finish, call in zip(finishes, model_calls[1:], strict=True))
    if summary:
        assert result.reply == "All echoed."
    else:  # an empty final answer is replaced by a summary of what was done
        assert "echo ✓" in result.reply, result.reply


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wait_s=st.floats(0.0, 0.3), slow_part=st.sampled_from(["model", "tool"]))
async def test_abort_halts_within_100_ms(server: ScriptedLLM, wait_s: float, slow_part: str) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if slow_part == "model":
            return Reply(content="late", delay_s=3)
        return Reply(tool_calls=[{"name": "sleepy", "arguments": {}}])

    async def sleepy(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(3)
        return ToolOutput(text="woke")

    scripted(server, handler)
    task = asyncio.create_task(
        run_agent_turn(
            config=config(server.base_url), history=[("user", "q")], tabs=NoBrowser(), sink=RecordingSink(),
            extra_tools=[Tool("sleepy", "Sleeps.", {"type": "object", "properties": {}}, sleepy, read_only=True)],
        )
    )  # fmt: skip
    await asyncio.sleep(wait_s)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - cancelled_at < 0.1


BROWSER_CALLS = [
    ("click", {"index": 1}),
    ("type", {"index": 2, "text": "x"}),
    ("navigate", {"url": "https://example.com/"}),
    ("scroll", {"direction": "down"}),
    ("get_elements", {}),
    ("get_element_details", {"indices": [1]}),
    ("screenshot", {}),
    ("list_tabs", {}),
    ("open_tab", {}),
    ("go_back", {}),
    ("press_key", {"key": "Enter"}),
    ("wait", {"ms": 10}),
]


@FAST
@given(call=st.sampled_from(BROWSER_CALLS))
async def test_without_a_browser_every_tool_answers_readably(
    server: ScriptedLLM, call: tuple[str, dict[str, Any]]
) -> None:
    name, arguments = call
    scripted(
        server,
        lambda r: Reply(content="no browser") if last_observation(r) else Reply(tool_calls=[{"name": name, "arguments": arguments}]),
    )  # fmt: skip
    sink = RecordingSink()
    result = await run_agent_turn(config=config(server.base_url), history=[("user", "q")], tabs=NoBrowser(), sink=sink)
    (step,) = sink.actions()
    assert step.ok is False
    assert "browser" in step.error
    assert NoBrowser.REASON in step.error
    assert "Suggestion:" in step.observation
    assert result.reply == "no browser"
