"""The "execute tools" phase of a turn: each call the model made is a step for the step executor (agents.step), whose
report for a model is written here — the tool's result fenced when it comes from the page, what the page looks like
after it, a screenshot, and what the model keeps of it once it is old."""

from __future__ import annotations

import time

from agents.config import AgentConfig
from agents.llm.toolcalls import ToolCall
from agents.observation import PageView, fence, observe, page_change, screenshot
from agents.state import StepRecord, TurnState
from agents.step import Observed, PageAfter, StepCall, StepContext, look_after, run_step
from agents.tools.base import SOURCE_AGENT, Tool, ToolOutput
from agents.transcript import Exchange, ToolResult
from browser_pool.extract import cut_at_word


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… (cut, {len(text) - limit} more characters)"


async def execute_calls(state: TurnState, exchange: Exchange) -> None:
    """Run the reply's calls in order. After a failure or a navigation the rest are skipped: the model decides
    again from what it now sees (indices from before a navigation name nothing)."""
    skip = ""
    limit = state.config.max_tool_calls
    context = state.steps_context
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
            page = context.mask(AgentReport.page_text(context, await look_after(context)))
            exchange.results.append(ToolResult(call, f"{note}.\n\n{page}"))
            skip = paused
            continue
        state.tool_calls += 1
        outcome = await run_step(_step_call(call), context)
        observed = outcome.observed
        exchange.results.append(ToolResult(call, observed.text, observed.screenshot, observed.summary))
        state.steps.append(StepRecord(call.name, outcome.ok, outcome.error))
        if not outcome.ok:
            skip = f"the call before it ({call.name}) failed; decide again from its result"
        elif outcome.output.navigated:
            skip = f"the call before it ({call.name}) loaded another page, so element indices changed"
        state.check_deadline()


def _step_call(call: ToolCall) -> StepCall:
    if call.arguments_error:
        return StepCall(
            call.name, {}, arguments_error=call.arguments_error, shown={"raw_arguments": call.raw_arguments}
        )
    return StepCall(call.name, call.arguments)


class AgentReport:
    """What the model reads of a step: the tool's result (fenced when it comes from the page, so it reads as data),
    the page after a step that may have changed it (what changed, when it is the same page), a screenshot, all cut to
    the observation budget; and the short summary it keeps once the step is old. Kept even for a model that cannot
    see pictures: a fallback model that can may take over (only the latest is sent)."""

    def __init__(self, config: AgentConfig) -> None:
        self.config = config

    async def look(self, context: StepContext) -> PageView:
        began = time.perf_counter()
        view = await observe(context.tabs, self.config)
        context.timings["observe"].append(_ms(began))
        return view

    async def render(
        self, context: StepContext, call: StepCall, tool: Tool | None, output: ToolOutput, after: PageAfter | None
    ) -> Observed:
        image = output.screenshot
        heading, page = self._page_after(context, after) if after is not None else ("", "")
        page_derived = tool is not None and tool.source != SOURCE_AGENT
        summary = _summary(output, page_derived, context.page if after is not None else None, self.config)
        note = after.note if after is not None else ""
        if page_derived and output.text:  # data, not instructions
            if page and not note:  # one fence around the result and the page
                output.text += f"\n\n{heading}\n{page}"
                heading = page = ""
            output.text = fence(output.text, label=f"{call.name} result")
        text = output.for_model()
        if heading:
            text += "\n\n" + _page_block(note, heading, page)
        if output.page_changed and image is None and self.config.step_screenshots:
            began = time.perf_counter()
            image = await screenshot(context.tabs, quality=self.config.screenshot_quality, hidden=context.hidden())
            context.timings["screenshot"].append(_ms(began))
        return Observed(_cut(text, self.config.observation_max_chars), image, summary)

    @staticmethod
    def _page_after(context: StepContext, after: PageAfter) -> tuple[str, str]:
        """(heading, page data): what changed since the page as last seen, which the page after now becomes."""
        view = after.view
        if view is None:
            return "", ""
        heading, shown = page_change(context.page, view) if view.available else (view.text, "")
        context.page = view
        return heading, shown

    @classmethod
    def page_text(cls, context: StepContext, after: PageAfter) -> str:
        heading, page = cls._page_after(context, after)
        return _page_block(after.note, heading, page)


def _page_block(note: str, heading: str, page: str) -> str:
    """A note on where the tab was not allowed to stay, a heading, and the page's own text, fenced."""
    body = f"{heading}\n{fence(page)}" if page else heading
    return f"{note}\n{body}" if note else body


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
