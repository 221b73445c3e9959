"""The "execute tools" phase: for each call, check it (arguments, loops, safety), ask the user when the policy
says so, run it with a timeout, observe the page, and report the step as it happens."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from agents.config import AgentConfig
from agents.events import ConfirmationRequest
from agents.llm.toolcalls import ToolCall
from agents.observation import PageView, fence, observe, page_change, screenshot
from agents.prompts import LOOP_NOTE
from agents.safety import SafetyDecision, origin_of
from agents.state import STOP_LOOP, StepRecord, StopTurn, TurnState
from agents.tools.base import SOURCE_AGENT, SOURCE_BROWSER, Tool, ToolOutput
from agents.tools.browser import target_text
from agents.transcript import Exchange, ToolResult
from browser_pool.extract import cut_at_word
from browser_pool.types import JsonObject

BLOCKED_SUGGESTION = "do not try this again; choose another way or tell the user why it cannot be done"
DECLINED_SUGGESTION = "do not reach the same result another way; tell the user it was not done or ask what to do"


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… (cut, {len(text) - limit} more characters)"


async def execute_calls(state: TurnState, exchange: Exchange) -> None:
    """Run the reply's calls in order. After a failure or a navigation the rest are skipped: the model decides
    again from what it now sees (indices from before a navigation name nothing)."""
    skip = ""
    limit = state.config.max_tool_calls
    for call in exchange.calls:
        if skip:
            exchange.results.append(ToolResult(call, f"Not run: {skip}."))
            continue
        if state.tool_calls >= limit:
            exchange.results.append(
                ToolResult(call, f"Not run: the limit of {limit} tool calls for this turn was reached.")
            )
            continue
        paused = await state.sink.checkpoint()
        if paused:
            # Indices and plans from before a person used the browser may name nothing now: look again.
            note = f"Not run: {paused}. The page may have changed; decide again from the page as it is now"
            exchange.results.append(ToolResult(call, f"{note}.\n\n{(await _observe_after(state)).render()}"))
            skip = paused
            continue
        state.tool_calls += 1
        result, output = await run_call(state, call)
        exchange.results.append(result)
        if not output.ok:
            skip = f"the call before it ({call.name}) failed; decide again from its result"
        elif output.data.get("navigated"):
            skip = f"the call before it ({call.name}) loaded another page, so element indices changed"
        state.check_deadline()


async def run_call(state: TurnState, call: ToolCall) -> tuple[ToolResult, ToolOutput]:
    arguments: JsonObject = call.arguments if not call.arguments_error else {"raw_arguments": call.raw_arguments}
    step_id = await state.sink.step_started(kind="action", action=call.name, arguments=arguments)
    started = time.perf_counter()
    tool = state.registry.get(call.name)
    try:
        output = await _checked_run(state, call, tool, step_id)
    except StopTurn as stop:  # the loop detector ends the turn: this step is closed, not left running
        await state.sink.step_finished(step_id, ok=False, error=stop.message, duration_ms=int(_ms(started)))
        raise
    image = output.screenshot
    after = await _observe_after(state) if output.page_changed else None
    page_derived = tool is not None and tool.source != SOURCE_AGENT
    summary = _summary(output, page_derived, state.page if after is not None else None, state.config)
    if page_derived and output.text:  # data, not instructions
        if after is not None and after.page and not after.note:  # one fence around the result and the page
            output.text += f"\n\n{after.heading}\n{after.page}"
            after = None
        output.text = fence(output.text, label=f"{call.name} result")
    text = output.for_model()
    if after is not None:
        text += "\n\n" + after.render()
    if output.page_changed and image is None and state.config.step_screenshots:
        began = time.perf_counter()
        image = await screenshot(state.tabs, quality=state.config.screenshot_quality)
        state.timings["screenshot"].append(_ms(began))
    text = _cut(text, state.config.observation_max_chars)
    await state.sink.step_finished(
        step_id,
        ok=output.ok,
        observation=text,
        error=output.error,
        duration_ms=int(_ms(started)),
        screenshot=image,
        target=output.data.get("target"),
    )
    state.steps.append(StepRecord(call.name, output.ok, output.error))
    # Kept even for a model that cannot see it: a fallback model that can may take over (only the latest is sent).
    return ToolResult(call, text, image, summary), output


def _summary(output: ToolOutput, page_derived: bool, page: PageView | None, config: AgentConfig) -> str:
    """What the model keeps of a step once it is no longer among the last few: whether it worked, the start of what
    the tool reported (cut at a word, saying how much was left out) and the page it left the tab on."""
    outcome = "Done" if output.ok else f"Error: {output.error}"
    report = _brief(output.text, config.old_observation_chars) if output.ok else ""
    where = f"Page then: {page.url} ({page.title})" if page is not None and page.available else ""
    if page_derived or where:
        body = "\n".join(part for part in (report, where) if part)
        return f"{outcome} (an earlier step, summarised)" + (f"\n{fence(body, label='summary')}" if body else "")
    return f"{outcome} (an earlier step, summarised)" + (f"\n{report}" if report else "")


def _brief(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    kept = cut_at_word(text, limit)
    return f"{kept} … ({len(text) - len(kept)} more characters not kept)"


async def _checked_run(state: TurnState, call: ToolCall, tool: Tool | None, step_id: int) -> ToolOutput:
    if call.arguments_error:
        return ToolOutput(
            ok=False,
            error=f"the arguments of {call.name} could not be read: {call.arguments_error}",
            suggestion="send the arguments as one JSON object that fits the tool's parameters",
        )
    invalid = state.registry.check(call.name, call.arguments)
    if invalid is not None or tool is None:
        return invalid or ToolOutput(ok=False, error=f"there is no tool named {call.name!r}")
    refused = None if tool.read_only else _repetition(state, call)  # looking again is never a loop
    if refused is not None:
        return refused
    began = time.perf_counter()
    decision = await state.policy.assess(
        tool=tool.name,
        read_only=tool.read_only,
        source=tool.source,
        arguments=call.arguments,
        page=state.page.facts,
        target_text=lambda: target_text(state.tabs, call.arguments),
    )
    state.timings["safety"].append(_ms(began))
    if decision.level == "block":
        return ToolOutput(
            ok=False, error=f"blocked by Hive's safety policy: {decision.reason}", suggestion=BLOCKED_SUGGESTION
        )
    if decision.level == "confirm" and not await _confirmed(state, call, decision, step_id):
        return ToolOutput(
            ok=False,
            error=f"the user did not allow this step ({decision.reason}), so it was not run",
            suggestion=DECLINED_SUGGESTION,
        )
    if decision.level == "notify":
        await state.sink.notify(f"{call.name}: {decision.reason}")
    return await _run_with_timeout(state, call, tool)


def _repetition(state: TurnState, call: ToolCall) -> ToolOutput | None:
    """The loop detector: the same acting call on the same page state (address, text, field values, checked and
    selected states, focus, scroll), again and again."""
    key = json.dumps([call.name, call.arguments, state.page.fingerprint], sort_keys=True, default=str)
    state.repeats[key] += 1
    count, limit = state.repeats[key], state.config.loop_repeat_limit
    if count < limit:
        return None
    if count > limit:
        raise StopTurn(
            STOP_LOOP,
            f"I stopped because I kept repeating the same step ({call.name} with the same arguments) without the "
            "page changing. The steps done so far are kept; tell me how to go on.",
        )
    return ToolOutput(
        ok=False,
        error=LOOP_NOTE.format(tool=call.name, count=count),
        suggestion="look at the page again (get_elements) and try a different element or approach, or answer",
    )


async def _confirmed(state: TurnState, call: ToolCall, decision: SafetyDecision, step_id: int) -> bool:
    request = ConfirmationRequest(
        step_id=step_id, action=call.name, arguments=call.arguments, reason=decision.reason, url=state.page.url
    )
    limit = state.config.confirm_timeout_s
    remaining = state.remaining_s()
    if remaining is not None:
        limit = max(0.0, min(limit, remaining))
    try:
        async with asyncio.timeout(limit):
            return bool(await state.sink.confirm(request))
    except TimeoutError:
        return False  # no answer is a no


async def _run_with_timeout(state: TurnState, call: ToolCall, tool: Tool) -> ToolOutput:
    limit = tool.timeout_s or state.config.tool_timeout_s
    remaining = state.remaining_s()
    if remaining is not None:
        limit = max(0.0, min(limit, remaining))
    began = time.perf_counter()
    try:
        async with asyncio.timeout(limit):
            return await state.registry.run(call.name, call.arguments, state.tool_ctx)
    except TimeoutError:
        return ToolOutput(
            ok=False,
            error=f"{call.name} did not finish within {limit:g} s and was stopped",
            suggestion="the page may be slow or stuck: wait a moment and look at it again before retrying",
            page_changed=tool.source == SOURCE_BROWSER,
        )
    finally:
        state.timings["action"].append(_ms(began))


@dataclass(frozen=True, slots=True)
class PageAfter:
    """The page after a step, as the model reads it: a note on where the tab was not allowed to stay, a heading,
    and the page's own text (to be fenced; "" when the heading says it all)."""

    note: str
    heading: str
    page: str

    def render(self) -> str:
        body = f"{self.heading}\n{fence(self.page)}" if self.page else self.heading
        return f"{self.note}\n{body}" if self.note else body


async def _observe_after(state: TurnState) -> PageAfter:
    """The fresh page summary for the observation, after taking the tab off an address it must not be on."""
    began = time.perf_counter()
    view = await observe(state.tabs, state.config)
    state.timings["observe"].append(_ms(began))
    note = ""
    if view.available and view.url.startswith(("http://", "https://")):
        origin = origin_of(view.url)
        if origin not in state.checked_origins:
            reason = await state.policy.navigation_block(view.url)
            if reason is None:
                state.checked_origins.add(origin)
            else:
                note = await _leave_page(state, view.url, reason)
                view = await observe(state.tabs, state.config)
                if view.available and origin_of(view.url) == origin:  # still there: show nothing of it
                    view = PageView(available=False, text="The page is not shown: its address is not allowed.")
    heading, shown = page_change(state.page, view) if view.available else (view.text, "")
    state.page = view
    return PageAfter(note, heading, shown)


async def _leave_page(state: TurnState, url: str, reason: str) -> str:
    """A click or a redirect led somewhere navigation may not go: the tab is emptied before anything is read."""
    try:
        await state.tabs.active_page.goto("about:blank")
    except Exception as exc:  # the page is then reported as it is; the model still learns it must not use it
        return f"The tab reached {url}, which is not allowed ({reason}), and could not be emptied: {exc}"
    return f"The tab reached {url}, which is not allowed ({reason}); the tab was emptied. Do not go there again."
