"""The step executor: the one place where a browser step is validated, aimed, checked for loops, judged by the safety
policy, confirmed, acted (with a timeout), observed, masked and recorded — whoever asks for it: the agent's tool
calls, a person's action from the live view, a script's through REST or MCP, a workflow replay's steps.

`run_step(call, context)` does one step. What differs by caller is in the `StepContext` it is handed, never in a
copy of this code: whether the safety policy judges the step at all (a person's own action is their decision; the
network firewall still decides where traffic goes), who confirms and how (`Asking`: the dashboard, refuse at once,
wait longer and tell the owner), what is observed and reported back (`Report`: the page for a model, the action's
structured result for a person or a script), whether repeats count as a loop (the agent's `LoopGuard`), the secrets
filled in at the moment of acting (`agents.secrets`), and hooks run after acting (a crashed browser ends a run).
A call may bring its own `aim` (a replay finds its recorded element first) and `check` (a replay's expected effect).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

from agents.events import ConfirmationRequest, EventSink
from agents.observation import PageView
from agents.prompts import LOOP_NOTE
from agents.safety import PageFacts, SafetyDecision, SafetyPolicy, origin_of
from agents.secrets import PLACEHOLDER, SecretRefused, Secrets
from agents.state import STOP_LOOP, StopTurn
from agents.tools.base import SOURCE_BROWSER, Tool, ToolContext, ToolOutput, ToolRegistry
from agents.tools.browser import target_text
from browser_pool.actions.targets import document_url
from browser_pool.observe import get_summary
from browser_pool.types import JsonObject, TabControl

if TYPE_CHECKING:
    from browser_pool.types import RecordedTarget

BLOCKED_SUGGESTION = "do not try this again; choose another way or tell the user why it cannot be done"
DECLINED_SUGGESTION = "do not reach the same result another way; tell the user it was not done or ask what to do"
SECRET_SUGGESTION = "type a saved credential only on a page of an origin it names, by the placeholders you were given"
NOT_ASKED = "they declined or did not answer in time"
# The page's text the policy reads when the caller does not keep an observation of its own.
SAFETY_TEXT_CHARS = 3_000

# Finds the step's element before it is judged: the arguments to use (with an index), or why the step cannot be done.
Aim = Callable[[JsonObject], Awaitable[tuple[JsonObject, str]]]
# After acting: why the step did not have the effect it should have ("" when it did), from the arguments it acted with.
Check = Callable[[JsonObject, ToolOutput], str]
# Told before a question waits for its answer (a scheduled replay's owner, by e-mail and webhook).
Tell = Callable[[ConfirmationRequest], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class StepCall:
    """One step: a tool by name and the arguments to judge and act with."""

    name: str
    arguments: JsonObject
    # The arguments could not be read (a model's malformed JSON): the step is recorded and fails.
    arguments_error: str = ""
    # What the record and a confirmation show instead of `arguments` (a replay's parameters with secrets masked).
    shown: JsonObject | None = None
    # The step's name in the record when it is not the tool's ("tool:name" for a page's tool called by hand).
    recorded_as: str = ""
    aim: Aim | None = None
    check: Check | None = None


class AfterAct(Protocol):
    """Runs after a step acted, before it is checked and observed (e.g. keeps what the step downloaded with it); may
    amend its output, or raise to end the run."""

    async def __call__(self, step_id: int, call: StepCall, output: ToolOutput) -> None: ...


@dataclass(frozen=True, slots=True)
class Asking:
    """How a confirm-level step gets its yes, and whether a notify-level step is told."""

    # Why the step is not asked at all and not done (a scheduled replay whose schedule says so); "" asks.
    refuse: str = ""
    # How long the user has to answer (None: the sink's own default).
    wait_s: float | None = None
    # The longest this executor waits for the sink, in case it never answers; no answer is a no.
    limit_s: float = 600.0
    tell: Tell | None = None
    # A notify-level step adds a notice for the user who watches (the agent's); a script's call does not.
    notices: bool = True


@dataclass(frozen=True, slots=True)
class PageAfter:
    """The page a step left the tab on: a note when the tab was taken off an address it must not be on, and the
    page as the caller observes it (None when it does not observe pages)."""

    note: str = ""
    view: PageView | None = None


@dataclass(frozen=True, slots=True)
class Observed:
    """What a step reports: its observation (recorded, and read by whoever asked), a picture, and what a model keeps
    of it once it is old (None: the text, it is short)."""

    text: str
    screenshot: bytes | None = None
    summary: str | None = None


class Report(Protocol):
    """What a caller observes after a step and reads of it."""

    async def look(self, context: StepContext) -> PageView | None:
        """The page after a step that may have changed it (None: this caller does not observe pages)."""

    async def render(
        self, context: StepContext, call: StepCall, tool: Tool | None, output: ToolOutput, after: PageAfter | None
    ) -> Observed:
        """The step's observation from its output and the page after it."""


@dataclass(slots=True)
class LoopGuard:
    """The agent's loop detector: the same acting call on the same page state (address, text, field values, checked
    and selected states, focus, scroll), again and again, is refused, and once more ends the turn."""

    limit: int
    repeats: Counter[str] = field(default_factory=Counter)

    def check(self, call: StepCall, arguments: JsonObject, fingerprint: str) -> ToolOutput | None:
        key = json.dumps([call.name, arguments, fingerprint], sort_keys=True, default=str)
        self.repeats[key] += 1
        count = self.repeats[key]
        if count < self.limit:
            return None
        if count > self.limit:
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


@dataclass(slots=True)
class StepContext:
    """Everything a step needs from its caller; built once per turn or run."""

    registry: ToolRegistry
    tool_ctx: ToolContext
    report: Report
    # None: the step is not judged (a person's own action from the dashboard or the REST API).
    policy: SafetyPolicy | None = None
    asking: Asking = Asking()
    loops: LoopGuard | None = None
    secrets: Secrets | None = None
    after_act: Sequence[AfterAct] = ()
    # One tool call (confirmation time excluded); a Tool's own `timeout_s` overrides it.
    tool_timeout_s: float = 30.0
    # The turn's end (time.monotonic()); waits and actions never go past it.
    deadline: float | None = None
    # The page as last observed, when the caller keeps an observation (the agent's); else it is read when needed.
    page: PageView | None = None
    checked_origins: set[str] = field(default_factory=set)
    # Milliseconds per phase ("safety", "action", "observe", "screenshot"), for the debug log and the benchmarks.
    timings: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    @property
    def tabs(self) -> TabControl:
        return self.tool_ctx.tabs

    @property
    def sink(self) -> EventSink:
        return self.tool_ctx.sink

    def remaining_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def bounded(self, limit: float) -> float:
        remaining = self.remaining_s()
        return limit if remaining is None else max(0.0, min(limit, remaining))

    def __post_init__(self) -> None:
        self.tool_ctx.mask = self.mask  # a tool that hands a page's text to a model masks it as the step would

    def mask(self, text: str) -> str:
        return self.secrets.mask(text) if self.secrets is not None and text else text

    def hidden(self) -> frozenset[str]:
        """The secrets a picture of the page must not show as text."""
        return self.secrets.hidden() if self.secrets is not None else frozenset()


@dataclass(slots=True)
class StepOutcome:
    step_id: int
    output: ToolOutput
    observed: Observed
    # The policy or the user said no: an answer, not a problem with the page (a replay does not heal it).
    refused: bool = False

    @property
    def ok(self) -> bool:
        return self.output.ok

    @property
    def error(self) -> str:
        return self.output.error


class _Refused(Exception):
    def __init__(self, output: ToolOutput) -> None:
        super().__init__(output.error)
        self.output = output


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def run_step(call: StepCall, context: StepContext) -> StepOutcome:
    """Do one step and record it: started, then finished with its observation, picture and target."""
    shown = call.shown if call.shown is not None else call.arguments
    step_id = await context.sink.step_started(kind="action", action=call.recorded_as or call.name, arguments=shown)
    started = time.perf_counter()
    tool = context.registry.get(call.name)
    refused = False
    try:
        output = await _checked_act(call, tool, context, step_id, shown)
    except _Refused as refusal:
        output, refused = refusal.output, True
    except StopTurn as stop:  # the loop detector ends the turn: this step is closed, not left running
        await context.sink.step_finished(step_id, ok=False, error=stop.message, duration_ms=int(_ms(started)))
        raise
    after = await look_after(context) if output.page_changed else None
    observed = await context.report.render(context, call, tool, output, after)
    output.text, output.error = context.mask(output.text), context.mask(output.error)
    observed = Observed(
        context.mask(observed.text),
        observed.screenshot,
        context.mask(observed.summary) if observed.summary is not None else None,
    )
    await context.sink.step_finished(
        step_id,
        ok=output.ok,
        observation=observed.text,
        error=output.error,
        duration_ms=int(_ms(started)),
        screenshot=observed.screenshot,
        target=_target_of(output, context.mask),
    )
    return StepOutcome(step_id, output, observed, refused)


def _target_of(output: ToolOutput, mask: Callable[[str], str]) -> RecordedTarget | None:
    """The element the step acted on, as recorded for a workflow: masked as the step's report is (a link reading
    "Signed in as <the username typed>" is named by its text)."""
    target = output.action.target if output.action is not None else None
    if target is None:
        return None
    masked: dict[str, object] = {}
    for key, value in target.items():
        if key in ("selector", "xpath") and isinstance(value, str):
            # A path holding a secret is left out rather than kept broken: a replay finds the element by the rest.
            masked[key] = value if mask(value) == value else ""
        elif isinstance(value, str):
            masked[key] = mask(value)
        elif isinstance(value, dict):
            masked[key] = {name: mask(text) if isinstance(text, str) else text for name, text in value.items()}
        else:
            masked[key] = value
    return cast("RecordedTarget", masked)


async def _checked_act(
    call: StepCall, tool: Tool | None, context: StepContext, step_id: int, shown: JsonObject
) -> ToolOutput:
    """Validate, aim, check for a loop, judge and confirm, then act; a failed check is the step's output."""
    if call.arguments_error:
        return ToolOutput(
            ok=False,
            error=f"the arguments of {call.name} could not be read: {call.arguments_error}",
            suggestion="send the arguments as one JSON object that fits the tool's parameters",
        )
    invalid = context.registry.check(call.name, call.arguments)
    if invalid is not None or tool is None:
        return invalid or ToolOutput(ok=False, error=f"there is no tool named {call.name!r}")
    if (
        context.secrets is not None
        and tool.source == SOURCE_BROWSER
        and (refused := context.secrets.refusal(call.name))
    ):
        return ToolOutput(ok=False, error=refused)
    arguments = call.arguments
    if call.aim is not None:
        arguments, problem = await call.aim(arguments)
        if problem:  # the picture after it shows the page the step did not fit
            return ToolOutput(ok=False, error=problem, page_changed=True)
    if context.loops is not None and not tool.read_only:  # looking again is never a loop
        repeated = context.loops.check(call, arguments, context.page.fingerprint if context.page else "")
        if repeated is not None:
            return repeated
    await _judge(call, tool, arguments, context, step_id, shown)
    if context.secrets is not None:  # at the last moment, on the document the step acts on
        try:
            filled = await context.secrets.fill(arguments, url=await _url_acted_on(context, arguments))
        except SecretRefused as refusal:
            return ToolOutput(ok=False, error=f"Not done: {refusal}", suggestion=SECRET_SUGGESTION)
        if tool.source == SOURCE_BROWSER and call.name == "type" and filled.get("text") != arguments.get("text"):
            # A secret goes into the field: no picture of the page shows it, whoever watches or reads it later.
            filled = {**filled, "conceal": True}
        elif tool.source == SOURCE_BROWSER and call.name == "screenshot" and (hidden := context.hidden()):
            # The picture the step hands back covers what the page shows of a secret filled in earlier.
            filled = {**filled, "hidden": sorted(hidden)}
        arguments = filled
    output = await _act(call, tool, arguments, context)
    for hook in context.after_act:
        await hook(step_id, call, output)
    if output.ok and call.check is not None:
        problem = call.check(arguments, output)
        if problem:
            output.ok, output.error = False, problem
    return output


async def _page_facts(context: StepContext) -> PageFacts:
    if context.page is not None:
        return context.page.facts
    try:
        summary = await get_summary(context.tabs.active_page, text_chars=SAFETY_TEXT_CHARS)
    except Exception:  # the policy still judges the address and the action
        try:
            return PageFacts(url=context.tabs.active_page.url)
        except Exception:
            return PageFacts()
    return PageFacts(url=summary.url, text=summary.visible_text)


async def _judge(
    call: StepCall, tool: Tool, arguments: JsonObject, context: StepContext, step_id: int, shown: JsonObject
) -> None:
    """The safety policy's level for the step, and what it asks for; raises _Refused on a no."""
    if context.policy is None:
        return
    began = time.perf_counter()
    page = await _page_facts(context)
    decision = await context.policy.assess(
        tool=tool.name,
        read_only=tool.read_only,
        source=tool.source,
        arguments=arguments,
        page=page,
        target_text=lambda: target_text(context.tabs, arguments),
    )
    context.timings["safety"].append(_ms(began))
    if decision.level == "block":
        raise _Refused(
            ToolOutput(
                ok=False, error=f"Blocked by Hive's safety policy: {decision.reason}", suggestion=BLOCKED_SUGGESTION
            )
        )
    if decision.level == "confirm":
        why_not = await _ask(call, decision, context, step_id, shown, page.url)
        if why_not:
            raise _Refused(
                ToolOutput(
                    ok=False,
                    error=f"Not done: it needs the user's yes ({decision.reason}), and {why_not}.",
                    suggestion=DECLINED_SUGGESTION,
                )
            )
    if decision.level == "notify" and context.asking.notices:
        await context.sink.notify(f"{call.name}: {decision.reason}")


async def _ask(
    call: StepCall, decision: SafetyDecision, context: StepContext, step_id: int, shown: JsonObject, url: str
) -> str:
    """ "" when the user said yes, else why the step is not done."""
    asking = context.asking
    if asking.refuse:
        return asking.refuse
    request = ConfirmationRequest(
        step_id=step_id,
        action=call.name,
        arguments=shown,
        reason=context.mask(decision.reason),
        url=url,
        timeout_s=asking.wait_s,
    )
    if asking.tell is not None:
        await asking.tell(request)
    try:
        async with asyncio.timeout(context.bounded(asking.limit_s)):
            if await context.sink.confirm(request):
                return ""
    except TimeoutError:
        pass  # no answer is a no
    return NOT_ASKED


async def _act(call: StepCall, tool: Tool, arguments: JsonObject, context: StepContext) -> ToolOutput:
    """The tool itself, within its time limit."""
    limit = context.bounded(tool.timeout_s or context.tool_timeout_s)
    began = time.perf_counter()
    try:
        async with asyncio.timeout(limit):
            return await context.registry.invoke(call.name, arguments, context.tool_ctx)
    except TimeoutError:
        return ToolOutput(
            ok=False,
            error=f"{call.name} did not finish within {limit:g} s and was stopped",
            suggestion="the page may be slow or stuck: wait a moment and look at it again before retrying",
            page_changed=tool.source == SOURCE_BROWSER,
        )
    finally:
        context.timings["action"].append(_ms(began))


def _url_now(context: StepContext) -> str:
    try:
        return context.tabs.active_page.url
    except Exception:  # no page to fill secrets on: they are filled for none
        return ""


async def _url_acted_on(context: StepContext, arguments: JsonObject) -> str:
    """The address of the document a step with placeholders acts on: the tab's, or for an element in a frame the
    frame's (a page may embed another origin's). "" when it cannot be told, and nothing is filled for a page."""
    if not any(isinstance(value, str) and PLACEHOLDER.search(value) for value in arguments.values()):
        return _url_now(context)
    index, selector = arguments.get("index"), arguments.get("selector")
    try:
        return await document_url(
            context.tabs.active_page,
            index=index if isinstance(index, int) else None,
            selector=selector if isinstance(selector, str) else None,
        )
    except Exception:  # the element is gone or its frame detached: the step fails on it anyway
        return ""


async def look_after(context: StepContext) -> PageAfter:
    """The page after a step (or after a person used the browser), taken off an address the policy does not allow
    before anything of it is read."""
    view = await context.report.look(context)
    if context.policy is None:
        return PageAfter("", view)
    url = view.url if view is not None and view.available else _url_now(context)
    if not url.startswith(("http://", "https://")):
        return PageAfter("", view)
    origin = origin_of(url)
    if origin in context.checked_origins:
        return PageAfter("", view)
    reason = await context.policy.navigation_block(url)
    if reason is None:
        context.checked_origins.add(origin)
        return PageAfter("", view)
    note = await _leave_page(context, url, reason)
    if view is not None:
        view = await context.report.look(context)
        if view is not None and view.available and origin_of(view.url) == origin:  # still there: show nothing of it
            view = PageView(available=False, text="The page is not shown: its address is not allowed.")
    return PageAfter(note, view)


async def _leave_page(context: StepContext, url: str, reason: str) -> str:
    """A click or a redirect led somewhere navigation may not go: the tab is emptied before anything is read."""
    try:
        await context.tabs.active_page.goto("about:blank")
    except Exception as exc:  # the page is then reported as it is; whoever reads it still learns it must not be used
        return f"The tab reached {url}, which is not allowed ({reason}), and could not be emptied: {exc}"
    return f"The tab reached {url}, which is not allowed ({reason}); the tab was emptied. Do not go there again."
