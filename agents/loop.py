"""The ReAct loop: prepare context → ask the model → execute its tool calls → record, until the
model answers in text or a safety valve stops the turn.

Abort is cancellation of the task running `run_agent_turn`: every wait inside is a plain cancellable await
(nothing is shielded, no CancelledError is swallowed), so a stop halts the turn at once and the steps already
reported stay reported.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.config import AgentConfig
from agents.events import EventSink
from agents.execute import AgentReport, execute_calls
from agents.llm import ChatResult, LLMClient, LLMError, NoModelConfiguredError, Usage
from agents.llm.fenced import parse_fenced_reply
from agents.llm.messages import ChatMessage, FunctionTool
from agents.llm.toolcalls import ToolCall
from agents.observation import observe, page_context
from agents.prompts import LIMIT_NOTE, system_prompt
from agents.safety import SafetyPolicy
from agents.secrets import Secrets
from agents.state import STOP_MAX_TOOL_CALLS, PageTools, StopTurn, TurnState
from agents.step import AfterAct, Asking, LoopGuard, StepContext
from agents.tools import Tool, ToolContext, ToolRegistry, browser_tools, plan_tools
from agents.tools.more import more_tools
from agents.transcript import Exchange, Note, Transcript
from browser_pool.types import TabControl


@dataclass(slots=True)
class TurnResult:
    reply: str
    usage: Usage
    tool_calls: int = 0
    # Why a safety valve ended the turn early ("max_tool_calls", "loop", "turn_timeout"), or "".
    stopped: str = ""
    # Milliseconds per phase, for the debug log and the overhead benchmark.
    timings: dict[str, list[float]] = field(default_factory=dict)


class TurnLLMError(LLMError):
    """The model (and its fallback) failed; carries the tokens the turn used before that."""

    def __init__(self, message: str, usage: Usage) -> None:
        super().__init__(message)
        self.usage = usage


async def run_agent_turn(
    *,
    config: AgentConfig,
    history: Sequence[tuple[str, str]],
    tabs: TabControl,
    sink: EventSink,
    extra_tools: Sequence[Tool] = (),
    uploads: Mapping[str, Path] | None = None,
    context_messages: Sequence[ChatMessage] = (),
    page_tools: PageTools | None = None,
    secrets: Secrets | None = None,
    after_act: Sequence[AfterAct] = (),
) -> TurnResult:
    """One agent turn. Raises NoModelConfiguredError without a model, LLMError when the model service fails.

    ``page_tools`` gives the tools the current page offers (WebMCP, SKILLs); it is asked again before every
    model call, since pages register and remove tools as they change. ``secrets`` fills in values the model types
    by their `{{name}}` placeholder without seeing them (agents.secrets); ``after_act`` runs after each step acted
    (agents.step)."""
    if config.model is None:
        raise NoModelConfiguredError
    models = [config.model] + ([config.fallback_model] if config.fallback_model is not None else [])
    clients = [LLMClient(model, backoff_base_s=config.retry_backoff_s) for model in models]
    try:
        state = await prepare_turn(
            config, history, tabs, sink, extra_tools, uploads or {}, context_messages, clients, secrets=secrets
        )
        state.page_tools = page_tools
        state.steps_context.after_act = after_act
        return await _loop(state)
    finally:
        for client in clients:
            await client.close()


async def prepare_turn(
    config: AgentConfig,
    history: Sequence[tuple[str, str]],
    tabs: TabControl,
    sink: EventSink,
    extra_tools: Sequence[Tool],
    uploads: Mapping[str, Path],
    context_messages: Sequence[ChatMessage],
    clients: list[LLMClient],
    *,
    secrets: Secrets | None = None,
) -> TurnState:
    """Phase 1: tools, policy, and what the model is shown first (history, shared tabs, the current page), with
    every secret masked: a page, or a tab's title, may still show one typed in an earlier turn."""
    tools = [*(browser_tools() if config.browser_tools else ()), *(plan_tools() if config.plan_tools else ())]
    deferred = [name for name in config.deferred_tools if not (name == "upload_file" and uploads)]
    registry = ToolRegistry([*tools, *extra_tools], deferred=deferred)
    if registry.deferred:
        registry.add(more_tools(registry))
    asked = next((text for role, text in reversed(history) if role == "user"), "")
    if len(asked) >= config.long_task_chars:
        registry.reveal(config.long_task_tools)
    page = await observe(tabs, config)

    def masked(text: str) -> str:
        return secrets.mask(text) if secrets is not None else text

    transcript = Transcript(
        history=history,
        context_messages=[
            {**message, "content": masked(message["content"])} if isinstance(message.get("content"), str) else message
            for message in context_messages
        ],
        page_context=masked(page_context(page)),
        keep_full_observations=config.keep_full_observations,
    )
    deadline = time.monotonic() + config.turn_timeout_s if config.turn_timeout_s else None
    timings: defaultdict[str, list[float]] = defaultdict(list)
    steps_context = StepContext(
        registry=registry,
        tool_ctx=ToolContext(tabs=tabs, sink=sink, uploads=uploads, action_timeout_ms=config.action_timeout_ms),
        report=AgentReport(config),
        policy=SafetyPolicy(config.safety),
        asking=Asking(limit_s=config.confirm_timeout_s),
        loops=LoopGuard(config.loop_repeat_limit),
        tool_timeout_s=config.tool_timeout_s,
        deadline=deadline,
        page=page,
        timings=timings,
        secrets=secrets,
    )
    return TurnState(
        config=config,
        sink=sink,
        registry=registry,
        transcript=transcript,
        clients=clients,
        steps_context=steps_context,
        deadline=deadline,
        timings=timings,
    )


async def _loop(state: TurnState) -> TurnResult:
    try:
        while True:
            state.check_deadline()
            if state.page_tools is not None:
                state.registry.replace_dynamic(await state.page_tools())
            if state.tool_calls >= state.config.long_task_calls:
                state.registry.reveal(state.config.long_task_tools)  # the task turned out long
            result = await ask_model(state)
            exchange = await record_reply(state, result)
            if exchange is None:
                return _result(state)
            await execute_calls(state, exchange)
            _after_calls(state)
    except StopTurn as stop:
        step_id = await state.sink.step_started(kind="system", action=stop.reason)
        await state.sink.step_finished(step_id, ok=False, error=stop.message)
        state.paragraph_pending = True
        await state.emit(stop.message)
        return _result(state, stopped=stop.reason)


def _result(state: TurnState, stopped: str = "") -> TurnResult:
    return TurnResult(
        reply=state.reply,
        usage=state.usage,
        tool_calls=state.tool_calls,
        stopped=stopped,
        timings={phase: list(values) for phase, values in state.timings.items()},
    )


# -- phase 2: ask the model -----------------------------------------------------------------------------------


async def ask_model(state: TurnState) -> ChatResult:
    """One model reply, streamed; on failure the fallback model (if any) takes over for the rest of the turn."""
    failures: list[str] = []
    while True:
        client = state.client
        model = client.config
        prompt = system_prompt(
            state.registry,
            native_tools=model.uses_tool_calling,
            parallel=model.calls_tools_in_parallel,
            vision=model.sees_images,
            final_only=state.final_only,
            instructions=state.config.instructions,
            secrets=_secrets_note(state),
        )
        messages = state.transcript.render(model, prompt)
        tools = state.registry.functions() if model.uses_tool_calling and not state.final_only else None
        began = time.perf_counter()
        try:
            remaining = state.remaining_s()
            result = await _timed_chat(state, client, messages, tools, remaining)
        except LLMError as exc:
            failures.append(str(exc))
            if exc.emitted or state.model_index + 1 >= len(state.clients):
                raise TurnLLMError(_failure_message(failures), state.usage) from exc
            state.model_index += 1
            await state.sink.notify(
                f"The model {model.describe()} failed; switching to the fallback model {state.client.config.describe()}."
            )
            continue
        state.timings["model"].append((time.perf_counter() - began) * 1000)
        state.usage.add(result.usage)
        return result


def _secrets_note(state: TurnState) -> str:
    """What the agent may type by placeholder on the page it is on now."""
    secrets, page = state.steps_context.secrets, state.steps_context.page
    if secrets is None or page is None or not page.available:
        return ""
    return secrets.describe(url=page.url)


async def _timed_chat(
    state: TurnState,
    client: LLMClient,
    messages: list[ChatMessage],
    tools: list[FunctionTool] | None,
    remaining: float | None,
) -> ChatResult:
    async def on_call(request: dict[str, Any], response: dict[str, Any], duration_ms: int) -> None:
        await state.sink.model_call(request=_without_image_data(request), response=response, duration_ms=duration_ms)

    chat = client.stream_chat(
        messages, tools=tools, on_delta=state.emit, on_call=on_call, hold_fences=not client.config.uses_tool_calling
    )
    if remaining is None:
        return await chat
    try:
        async with asyncio.timeout(max(0.0, remaining)):
            return await chat
    except TimeoutError:
        state.check_deadline()
        raise


def _failure_message(failures: list[str]) -> str:
    if len(failures) == 1:
        return f"The model failed: {failures[0]}"
    return f"The model failed: {failures[0]}. The fallback model failed too: {failures[-1]}"


def _without_image_data(request: dict[str, Any]) -> dict[str, Any]:
    """The request for the debug log: screenshots are replaced by their size, everything else is kept as sent."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            if value.get("type") == "image_url" and isinstance(value.get("image_url"), dict):
                url = str(value["image_url"].get("url", ""))
                return {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,[{len(url)} characters]"}}
            return {key: strip(item) for key, item in value.items()}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return {key: (strip(value) if key == "messages" else copy.deepcopy(value)) for key, value in request.items()}


# -- phase 4: record the reply ------------------------------------------------------------------------------


async def record_reply(state: TurnState, result: ChatResult) -> Exchange | None:
    """Record what the model said: the exchange whose calls to run next, or None for the final answer."""
    native = state.client.config.uses_tool_calling
    calls: list[ToolCall]
    if native:
        calls, text, thought, parse_error = result.tool_calls, result.content.strip(), result.content.strip(), ""
    else:
        fenced = parse_fenced_reply(result.content, state.registry.names)
        calls, text, thought, parse_error = fenced.calls, fenced.text, fenced.thought, fenced.error
    reasoning = "\n\n".join(part for part in (result.reasoning, thought if calls else "") if part)
    if state.config.show_reasoning and reasoning:
        step_id = await state.sink.step_started(kind="thought")
        await state.sink.step_finished(step_id, ok=True, observation=reasoning)
    if calls and state.final_only:
        raise StopTurn(
            STOP_MAX_TOOL_CALLS,
            f"I stopped after {state.config.max_tool_calls} tool calls, the limit for one turn. "
            "The steps done so far are kept; ask me to continue if there is more to do.",
        )
    if calls or parse_error:
        state.paragraph_pending = True
        exchange = Exchange(text=text, raw=result.content, calls=calls)
        state.transcript.entries.append(exchange)
        if parse_error:  # counts as a tool call, so a model that never gets the format right meets the limit
            state.tool_calls += 1
            state.transcript.entries.append(
                Note(f"Your reply had a JSON block that could not be used: {parse_error}. Reply again with a "
                     "valid block, or answer in plain text.")
            )  # fmt: skip
        return exchange
    if result.stream is not None:
        await result.stream.release_held()
    if not state.reply:
        await state.emit(_completion_summary(state))
    return None


def _after_calls(state: TurnState) -> None:
    """The tool-call valve: past the limit, one last model call without tools (or the turn ends)."""
    if state.tool_calls < state.config.max_tool_calls or state.final_only:
        return
    if not state.config.final_answer_on_limit:
        raise StopTurn(
            STOP_MAX_TOOL_CALLS,
            f"I stopped after {state.config.max_tool_calls} tool calls, the limit for one turn. "
            "The steps done so far are kept; ask me to continue if there is more to do.",
        )
    state.final_only = True
    state.transcript.entries.append(Note(LIMIT_NOTE.format(limit=state.config.max_tool_calls)))


def _completion_summary(state: TurnState) -> str:
    """When the model ends without a word, the user still learns what happened: the steps taken and how each went."""
    if not state.steps:
        return "The model ended the turn without an answer."
    done = "; ".join(f"{step.action} {'✓' if step.ok else '✗ ' + step.error[:80]}" for step in state.steps)
    return f"The model ended the turn without a written answer. Steps taken: {done}."
