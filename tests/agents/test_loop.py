"""The ReAct loop without a browser page: tool flow, failures, valves, abort, retries and fallback, confirmations.

The browser here is one that died (NoBrowser), which also shows the loop degrades gracefully: the model and the
user get readable messages, the turn does not crash.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import time
from typing import Any

import pytest

from agents import AgentConfig, LLMError, NoModelConfiguredError, Tool, ToolContext, ToolOutput, run_agent_turn
from agents.prompts import PAGE_CONTEXT_INTRO
from agents.safety import SafetyConfig
from tests.agents.support import (
    NoBrowser,
    RecordingSink,
    abort_when,
    config,
    fenced,
    last_observation,
    message_text,
    model,
)
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = pytest.mark.asyncio

QUESTION = [("user", "What is the answer?")]


def lookup_tool(calls: list[dict[str, Any]] | None = None, *, read_only: bool = True) -> Tool:
    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        if calls is not None:
            calls.append(arguments)
        return ToolOutput(text=f"result for {arguments['query']}: 42")

    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    return Tool("lookup", "Look something up.", schema, handler, read_only=read_only)


def failing_tool() -> Tool:
    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        raise RuntimeError("the database is down")

    return Tool("fetch_orders", "Fetch the user's orders.", {"type": "object", "properties": {}}, handler)


def slow_tool(seconds: float, finished: list[str] | None = None) -> Tool:
    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(seconds)
        if finished is not None:
            finished.append("done")
        return ToolOutput(text="finally done")

    return Tool("slow_report", "Build a slow report.", {"type": "object", "properties": {}}, handler, read_only=True)


def cart_tool(ran: list[str], *, read_only: bool = False) -> Tool:
    async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        ran.append(arguments["item"])
        return ToolOutput(text=f"{arguments['item']} is in the cart")

    schema = {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]}
    return Tool("add_to_cart", "Add an item to the cart.", schema, handler, read_only=read_only, source="webmcp")


async def turn(cfg: AgentConfig, sink: RecordingSink, *tools: Tool, history: Any = QUESTION, **kw: Any) -> Any:
    return await run_agent_turn(config=cfg, history=history, tabs=NoBrowser(), sink=sink, extra_tools=tools, **kw)


# -- the tool flow (property 4) and failures (property 5) --------------------------------------------------------


async def test_a_tool_call_runs_and_its_result_reaches_the_model(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        result = last_observation(request)
        if not result:
            return Reply(tool_calls=[{"name": "lookup", "arguments": {"query": "life"}}], prompt_tokens=50)
        answer = result.rsplit(": ", 1)[-1].split("\n")[0]
        return Reply(content=f"The answer is {answer}.", prompt_tokens=80, completion_tokens=5)

    model_server.script(handler)
    calls: list[dict[str, Any]] = []
    result = await turn(config(model_server.base_url), sink, lookup_tool(calls))

    assert result.reply == "The answer is 42." == sink.text
    assert calls == [{"query": "life"}]
    assert result.tool_calls == 1
    (step,) = sink.actions()
    assert (step.action, step.arguments, step.ok) == ("lookup", {"query": "life"}, True)
    assert "result for life: 42" in step.observation
    assert result.usage.prompt_tokens == 130
    # The debug log holds exactly what was sent, every time.
    assert [c["request"]["messages"] for c in sink.model_calls] == [r["messages"] for r in model_server.requests]
    assert sink.model_calls[1]["request"]["tools"] == model_server.requests[1]["tools"]


async def test_a_failing_tool_gives_an_error_and_a_suggestion_and_the_turn_goes_on(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        result = last_observation(request)
        if not result:
            return Reply(tool_calls=[{"name": "fetch_orders", "arguments": {}}])
        assert "Error:" in result
        assert "Suggestion:" in result
        return Reply(content="I could not fetch your orders: the database is down.")

    model_server.script(handler)
    result = await turn(config(model_server.base_url), sink, failing_tool())
    (step,) = sink.actions()
    assert step.ok is False
    assert "the database is down" in step.error
    assert "Suggestion:" in step.observation
    assert result.reply.startswith("I could not fetch")


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"query": 7}, "invalid arguments for lookup: query: 7 is not of type 'string'"),
        ('{"query": ', "could not be read"),
    ],
)
async def test_bad_arguments_are_refused_before_the_tool_runs(
    model_server: ScriptedLLM, sink: RecordingSink, arguments: Any, problem: str
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(tool_calls=[{"name": "lookup", "arguments": arguments}])
        return Reply(content="Sorry.")

    model_server.script(handler)
    calls: list[dict[str, Any]] = []
    await turn(config(model_server.base_url), sink, lookup_tool(calls))
    (step,) = sink.actions()
    assert calls == []
    assert step.ok is False
    assert problem in step.error
    assert "Suggestion:" in step.observation


async def test_calls_after_a_failed_one_in_the_same_reply_are_not_run(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(
                tool_calls=[{"name": "fetch_orders", "arguments": {}}, {"name": "lookup", "arguments": {"query": "x"}}]
            )
        return Reply(content="ok")  # fmt: skip

    model_server.script(handler)
    calls: list[dict[str, Any]] = []
    await turn(config(model_server.base_url), sink, failing_tool(), lookup_tool(calls))
    tool_messages = [m for m in model_server.requests[1]["messages"] if m["role"] == "tool"]
    assert calls == []
    assert len(tool_messages) == 2
    assert tool_messages[1]["content"].startswith("Not run: the call before it (fetch_orders) failed")


# -- valves ---------------------------------------------------------------------------------------------------


async def test_the_tool_call_limit_asks_for_a_final_answer_without_tools(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if "tools" not in request:
            return Reply(content="Here is what I found so far: 42.")
        return Reply(tool_calls=[{"name": "lookup", "arguments": {"query": f"q{len(model_server.requests)}"}}])

    model_server.script(handler)
    calls: list[dict[str, Any]] = []
    result = await turn(config(model_server.base_url, max_tool_calls=3), sink, lookup_tool(calls))
    assert len(calls) == 3
    assert result.tool_calls == 3
    assert result.stopped == ""
    assert "all 3 tool calls" in message_text(model_server.requests[-1]["messages"][-1])
    assert result.reply == "Here is what I found so far: 42."


@pytest.mark.parametrize("final_answer_on_limit", [True, False])
async def test_a_model_that_keeps_calling_tools_is_stopped_with_a_clear_message(
    model_server: ScriptedLLM, sink: RecordingSink, final_answer_on_limit: bool
) -> None:
    model_server.script(
        lambda request: Reply(tool_calls=[{"name": "lookup", "arguments": {"query": f"q{len(model_server.requests)}"}}])
    )
    cfg = config(model_server.base_url, max_tool_calls=2, final_answer_on_limit=final_answer_on_limit)
    result = await turn(cfg, sink, lookup_tool())
    assert result.stopped == "max_tool_calls"
    assert result.tool_calls == 2
    assert "I stopped after 2 tool calls" in result.reply
    assert sink.steps[-1].kind == "system"
    assert "limit" in sink.steps[-1].error


async def test_a_slow_tool_is_stopped_by_its_timeout_and_the_turn_goes_on(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(tool_calls=[{"name": "slow_report", "arguments": {}}])
        return Reply(content="The report takes too long; try later.")

    model_server.script(handler)
    finished: list[str] = []
    started = time.monotonic()
    result = await turn(config(model_server.base_url, tool_timeout_s=0.2), sink, slow_tool(5, finished))
    assert time.monotonic() - started < 2
    assert finished == []
    (step,) = sink.actions()
    assert step.ok is False
    assert "did not finish within 0.2 s" in step.error
    assert result.reply == "The report takes too long; try later."


async def test_repeating_the_same_call_on_the_same_page_is_detected(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    model_server.script(lambda request: Reply(tool_calls=[{"name": "lookup", "arguments": {"query": "same"}}]))
    calls: list[dict[str, Any]] = []
    acting = lookup_tool(calls, read_only=False)  # only acting calls count: looking again is never a loop
    result = await turn(config(model_server.base_url, loop_repeat_limit=3), sink, acting)
    assert len(calls) == 2  # the third identical call is refused and the model told; the fourth ends the turn
    assert "same arguments 3 times" in sink.actions()[2].error
    assert result.stopped == "loop"
    assert "kept repeating the same step" in result.reply
    assert all(step.finished for step in sink.steps)  # the refused fourth call is closed, not left running


async def test_the_turn_timeout_ends_the_turn_with_a_message(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    model_server.script(lambda request: Reply(delay_s=0.3, tool_calls=[{"name": "lookup", "arguments": {"query": str(time.time())}}]))  # fmt: skip
    started = time.monotonic()
    result = await turn(config(model_server.base_url, turn_timeout_s=1.0), sink, lookup_tool())
    assert time.monotonic() - started < 1.6
    assert result.stopped == "turn_timeout"
    assert "longer than 1 s" in result.reply


# -- abort (property 12) --------------------------------------------------------------------------------------


async def test_abort_during_a_slow_model_call_halts_at_once_and_keeps_finished_steps(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(tool_calls=[{"name": "lookup", "arguments": {"query": "life"}}])
        return Reply(content="The answer is 42.", delay_s=5)

    model_server.script(handler)
    task = asyncio.create_task(turn(config(model_server.base_url), sink, lookup_tool()))
    took = await abort_when(task, lambda: len(model_server.requests) == 2)
    assert took < 0.1
    (step,) = sink.actions()
    assert step.finished
    assert step.ok


async def test_abort_during_a_slow_tool_halts_at_once(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    model_server.script(lambda request: Reply(tool_calls=[{"name": "slow_report", "arguments": {}}]))
    finished: list[str] = []
    task = asyncio.create_task(turn(config(model_server.base_url), sink, slow_tool(10, finished)))
    took = await abort_when(task, lambda: bool(sink.actions()))
    assert took < 0.1
    assert finished == []


# -- retries and the fallback model ----------------------------------------------------------------------------


async def test_after_retries_the_fallback_model_answers(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if request["model"] == "primary":
            return Reply(status=500, error="primary is overloaded")
        return Reply(content="Answer from the fallback.")

    model_server.script(handler)
    cfg = dataclasses.replace(
        config(model_server.base_url, capabilities={"name": "primary"}),
        fallback_model=model(model_server.base_url, name="backup", provider="custom"),
    )
    result = await turn(cfg, sink)
    assert [r["model"] for r in model_server.requests] == ["primary"] * 4 + ["backup"]
    assert result.reply == "Answer from the fallback."
    assert any("switching to the fallback model backup" in notice for notice in sink.notices)
    assert [c["response"].get("error", "") != "" for c in sink.model_calls] == [True] * 4 + [False]


async def test_when_both_models_fail_the_error_names_both(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    model_server.script(lambda request: Reply(status=429 if request["model"] == "primary" else 503, error="busy"))
    cfg = dataclasses.replace(
        config(model_server.base_url, capabilities={"name": "primary"}),
        fallback_model=model(model_server.base_url, name="backup"),
    )
    with pytest.raises(LLMError) as failure:
        await turn(cfg, sink)
    message = str(failure.value)
    assert "primary" in message
    assert "429" in message
    assert "backup" in message
    assert "503" in message


async def test_a_rate_limited_model_is_retried_before_any_fallback(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    model_server.script(lambda request: Reply(status=429) if len(model_server.requests) == 1 else Reply(content="ok"))
    cfg = dataclasses.replace(config(model_server.base_url), fallback_model=model(model_server.base_url, name="backup"))
    result = await turn(cfg, sink)
    assert result.reply == "ok"
    assert {r["model"] for r in model_server.requests} == {"scripted"}


async def test_no_model_is_a_clear_error(sink: RecordingSink) -> None:
    with pytest.raises(NoModelConfiguredError, match="No model is configured"):
        await turn(AgentConfig(model=None), sink)


# -- confirmations for tools from pages and SKILLs ----------------------------------------------------------------


@pytest.mark.parametrize(("answer", "runs"), [(True, True), (False, False), (None, False)])
async def test_confirm_mode_asks_before_a_page_tool_changes_things(
    model_server: ScriptedLLM, answer: bool | None, runs: bool
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        result = last_observation(request)
        if not result:
            return Reply(tool_calls=[{"name": "add_to_cart", "arguments": {"item": "tea"}}])
        return Reply(content=result.splitlines()[0])

    model_server.script(handler)
    sink = RecordingSink(confirm_answer=answer)
    ran: list[str] = []
    cfg = config(model_server.base_url, safety=SafetyConfig(confirm_mode="confirm"), confirm_timeout_s=0.3)
    result = await turn(cfg, sink, cart_tool(ran))
    (request,) = sink.confirmations
    (step,) = sink.actions()
    assert request.step_id == step.id
    assert request.action == "add_to_cart"
    assert request.arguments == {"item": "tea"}
    assert "confirm mode" in request.reason
    assert (ran == ["tea"]) is runs
    assert step.ok is runs
    if not runs:
        assert step.error.startswith("Not done: it needs the user's yes")
        assert "declined or did not answer" in result.reply


async def test_read_only_page_tools_and_auto_mode_do_not_ask(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    model_server.script(
        lambda request: (
            Reply(content="done")
            if last_observation(request)
            else Reply(tool_calls=[{"name": "add_to_cart", "arguments": {"item": "tea"}}])
        )
    )
    ran: list[str] = []
    await turn(
        config(model_server.base_url, safety=SafetyConfig(confirm_mode="confirm")), sink, cart_tool(ran, read_only=True)
    )
    await turn(config(model_server.base_url), sink, cart_tool(ran))
    assert ran == ["tea", "tea"]
    assert sink.confirmations == []


# -- reasoning (property 3), plans, fenced JSON ------------------------------------------------------------------


@pytest.mark.parametrize("show_reasoning", [True, False])
async def test_reasoning_is_recorded_as_thought_steps_only_when_wanted(
    model_server: ScriptedLLM, sink: RecordingSink, show_reasoning: bool
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(content="I should look it up.", tool_calls=[{"name": "lookup", "arguments": {"query": "a"}}])
        return Reply(content="It is 42.", reasoning="The tool said 42, so answer 42.")

    model_server.script(handler)
    result = await turn(config(model_server.base_url, show_reasoning=show_reasoning), sink, lookup_tool())
    thoughts = [step.observation for step in sink.steps if step.kind == "thought"]
    assert thoughts == (["I should look it up.", "The tool said 42, so answer 42."] if show_reasoning else [])
    assert "The tool said" not in result.reply  # a reasoning field is never part of the answer


async def test_a_plan_is_published_in_dependency_order_and_followed(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    plan = [
        {"id": "pay", "title": "Pay", "depends_on": ["fill", "pick"]},
        {"id": "fill", "title": "Fill the form", "depends_on": ["pick"]},
        {"id": "pick", "title": "Pick a card"},
    ]
    script = [
        ("publish_plan", {"steps": plan}),
        ("update_plan", {"step_id": "pay", "status": "running"}),  # refused: its dependencies are not done
        ("update_plan", {"step_id": "pick", "status": "done"}),
        ("update_plan", {"step_id": "fill", "status": "done"}),
        ("update_plan", {"step_id": "pay", "status": "done"}),
    ]

    def handler(request: dict[str, Any]) -> Reply:
        done = sum(1 for m in request["messages"] if m["role"] == "tool")
        if done < len(script):
            name, arguments = script[done]
            return Reply(tool_calls=[{"name": name, "arguments": arguments}])
        return Reply(content="All done.")

    model_server.script(handler)
    await turn(config(model_server.base_url), sink)
    assert [step.id for step in sink.plans[0]] == ["pick", "fill", "pay"]
    assert "depends on fill, pick, which is not finished" in sink.actions()[1].error
    assert [step.status for step in sink.plans[-1]] == ["done", "done", "done"]


async def test_a_model_without_function_calling_uses_fenced_json(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        assert "tools" not in request
        result = last_observation(request)
        if not result:
            return Reply(content=fenced("lookup", {"query": "life"}, thought="Let me look that up."))
        if "lookup" in result and len(model_server.requests) == 2:
            return Reply(content='```json\n{"tool": "lookup", "arguments": {"query": }\n```')  # broken: told to fix
        return Reply(content="The answer is 42.")

    model_server.script(handler)
    calls: list[dict[str, Any]] = []
    result = await turn(config(model_server.base_url, capabilities={"provider": "custom"}), sink, lookup_tool(calls))
    system = model_server.requests[0]["messages"][0]["content"]
    assert "```json" in system
    assert "- lookup (read-only): Look something up." in system
    assert calls == [{"query": "life"}]
    assert "could not be used" in message_text(model_server.requests[2]["messages"][-1])
    assert "```" not in sink.text
    assert result.reply == sink.text.strip()
    assert result.reply == "Let me look that up.\n\nThe answer is 42."


async def test_shared_tab_context_and_the_page_sit_before_the_request(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    model_server.script(lambda request: Reply(content="ok"))
    context = [{"role": "user", "content": "Shared tab: Docs (https://docs.example)\n<untrusted_page_data>…"}]
    history = [("user", "hi"), ("assistant", "hello"), ("user", "Summarise the shared tab.")]
    await turn(config(model_server.base_url), sink, history=history, context_messages=context)
    messages = model_server.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "user", "user"]
    assert messages[3]["content"].startswith("Shared tab:")
    assert "The page could not be observed: the browser process exited unexpectedly" in messages[4]["content"]
    # The user's request is the last thing the model reads.
    assert messages[5]["content"] == "Summarise the shared tab."


async def test_a_dead_browser_gives_readable_observations_not_a_crash(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        result = last_observation(request)
        if not result:
            return Reply(tool_calls=[{"name": "click", "arguments": {"index": 3}}])
        return Reply(content="The browser is unavailable right now: " + result.splitlines()[0])

    model_server.script(handler)
    result = await turn(config(model_server.base_url), sink)
    (step,) = sink.actions()
    assert step.ok is False
    assert "the browser is not available" in step.error
    assert "browser session is restored on the next turn" in step.observation
    assert result.reply.startswith("The browser is unavailable right now")
    assert json.dumps(sink.model_calls)  # everything logged is plain JSON


async def test_after_a_person_hands_control_back_the_model_sees_the_page_again(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(tool_calls=[{"name": "lookup", "arguments": {"query": "fares"}}])
        return Reply(content="seen: " + last_observation(request).splitlines()[0])

    model_server.script(handler)
    sink.pause_note.append("ada took over the browser and handed it back")
    result = await turn(config(model_server.base_url), sink, lookup_tool())
    assert sink.actions() == []  # the call planned before the take-over was not run
    assert result.reply.startswith("seen: Not run: ada took over the browser and handed it back")
    assert PAGE_CONTEXT_INTRO not in result.reply


async def test_page_tools_are_offered_as_they_come_and_go(model_server: ScriptedLLM, sink: RecordingSink) -> None:
    ran: list[str] = []
    offered: list[list[str]] = []

    def handler(request: dict[str, Any]) -> Reply:
        names = [tool["function"]["name"] for tool in request.get("tools", [])]
        offered.append([n for n in names if n.startswith("add_to_cart")])
        if len(offered) == 1:
            return Reply(tool_calls=[{"name": "add_to_cart", "arguments": {"item": "tea"}}])
        return Reply(content="done")

    model_server.script(handler)
    rounds = iter([[cart_tool(ran, read_only=True)], []])

    async def page_tools() -> list[Tool]:
        return next(rounds, [])

    await turn(config(model_server.base_url), sink, page_tools=page_tools)
    assert ran == ["tea"]
    assert offered == [["add_to_cart"], []]  # the page removed its tool after the first call


async def test_rarer_tools_wait_behind_more_tools_and_are_offered_once_asked_for(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not last_observation(request):
            return Reply(tool_calls=[{"name": "more_tools", "arguments": {}}])
        return Reply(content="I can open tabs now.")

    model_server.script(handler)
    await turn(config(model_server.base_url), sink)

    def offered(request: dict[str, Any]) -> set[str]:
        return {tool["function"]["name"] for tool in request["tools"]}

    first, second = model_server.requests
    assert {"click", "type", "navigate", "get_elements", "more_tools"} <= offered(first)
    assert not {"open_tab", "execute_js", "drag_drop", "upload_file"} & offered(first)
    assert {"open_tab", "execute_js", "drag_drop", "upload_file"} <= offered(second)
    (step,) = sink.actions()
    assert "- open_tab: " in step.observation
    # The limits are checked by Hive, not read by the model: they are left out of what is sent.
    click = next(t for t in first["tools"] if t["function"]["name"] == "click")["function"]["parameters"]
    assert "minimum" not in json.dumps(click)
    assert "additionalProperties" not in click
    # What an index, a selector and a point are is said once, in the rules, not in every tool.
    assert click["properties"]["index"] == {"type": "integer"}
    assert "Aim at an element by its [index]" in first["messages"][0]["content"]


LONG_TASK = [("user", "Plan my trip: " + "compare the fares of every airline flying to Lisbon in May, " * 8)]


def offered_names(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request["tools"]}


async def test_a_short_task_gets_no_planning_tools_and_a_long_one_gets_them_with_update_plan_after_publishing(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    model_server.script(lambda request: Reply(content="Hello."))
    await turn(config(model_server.base_url), sink)
    short = model_server.requests[0]
    assert not {"publish_plan", "summarize_page", "extract_data"} & offered_names(short)
    assert "publish_plan" not in short["messages"][0]["content"]  # no rule about a tool the model does not have

    replies = iter(
        [
            Reply(tool_calls=[{"name": "publish_plan", "arguments": {"steps": [{"id": "a", "title": "Look"}]}}]),
            Reply(tool_calls=[{"name": "update_plan", "arguments": {"step_id": "a", "status": "done"}}]),
            Reply(content="Done."),
        ]
    )
    model_server.requests.clear()
    model_server.script(lambda request: next(replies))
    await turn(config(model_server.base_url), sink, history=LONG_TASK)

    offered = [offered_names(request) for request in model_server.requests]
    assert "publish_plan" in offered[0]
    assert "publish_plan" in model_server.requests[0]["messages"][0]["content"]
    assert "update_plan" not in offered[0]
    assert "update_plan" in offered[1]
    assert [(step.action, step.ok) for step in sink.actions()] == [("publish_plan", True), ("update_plan", True)]


async def test_a_task_that_turns_out_long_gets_the_long_task_tools_without_asking(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    calls: list[dict[str, Any]] = []

    def handler(request: dict[str, Any]) -> Reply:
        done = sum(1 for message in request["messages"] if message["role"] == "tool")
        if done < 3:
            return Reply(tool_calls=[{"name": "lookup", "arguments": {"query": f"q{done}"}}])
        return Reply(content="Done.")

    model_server.script(handler)
    await turn(config(model_server.base_url, long_task_calls=2), sink, lookup_tool(calls))

    offered = [offered_names(request) for request in model_server.requests]
    assert [("publish_plan" in names) for names in offered] == [False, False, True, True]
    assert "more_tools" in offered[-1]
    assert "open_tab" not in offered[-1]


async def test_steps_older_than_the_last_few_are_kept_as_summaries(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    async def report(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        return ToolOutput(text=f"Report {arguments['query']} begins. " + "lorem ipsum " * 100 + "The total is 42.")

    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    tool = Tool("report", "Build a report.", schema, report, read_only=True)

    def handler(request: dict[str, Any]) -> Reply:
        done = sum(1 for message in request["messages"] if message["role"] == "tool")
        if done < 3:
            return Reply(tool_calls=[{"name": "report", "arguments": {"query": f"R{done + 1}"}}])
        return Reply(content="The totals are 42.")

    model_server.script(handler)
    cfg = config(model_server.base_url, keep_full_observations=1, old_observation_chars=100)
    await turn(cfg, sink, tool)

    results = [m["content"] for m in model_server.requests[-1]["messages"] if m["role"] == "tool"]
    assert len(results) == 3
    *older, latest = results
    assert latest.endswith("The total is 42.")  # the last step in full
    for number, text in enumerate(older, start=1):
        assert text.startswith("Done (an earlier step, summarised)")
        assert f"Report R{number} begins." in text
        assert "The total is 42." not in text
        assert re.search(r" (lorem|ipsum) … \(\d+ more characters not kept\)$", text)  # cut between words, and said


async def test_nothing_waits_behind_more_tools_when_no_tool_is_deferred(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    model_server.script(lambda request: Reply(content="Hello."))
    await turn(config(model_server.base_url, deferred_tools=()), sink)
    names = {tool["function"]["name"] for tool in model_server.requests[0]["tools"]}
    assert "open_tab" in names
    assert "more_tools" not in names
