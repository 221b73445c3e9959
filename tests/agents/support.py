"""Helpers for the agent tests: a recording event sink, a browser that is gone, and readers of model requests.

The scripted model's handlers use the readers to decide from what the agent actually sent (the element list it
got, the page summary, the tool results), never from a fixed script of indices.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents import AgentConfig, ModelConfig
from agents.events import ConfirmationRequest, PlanStep
from agents.prompts import RESULTS_INTRO
from agents.safety import SafetyConfig
from browser_pool.errors import BrowserCrashedError
from browser_pool.types import RecordedTarget, TabInfo
from tests.support.llm_server import AGENT_ADDED, Reply


@dataclass
class Step:
    id: int
    kind: str
    action: str
    arguments: dict[str, Any] | None
    finished: bool = False
    ok: bool | None = None
    observation: str = ""
    error: str = ""
    duration_ms: int | None = None
    screenshot: bytes | None = None


@dataclass
class RecordingSink:
    """An EventSink that remembers everything. `confirm_answer` None means the user never answers."""

    confirm_answer: bool | None = True
    deltas: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    model_calls: list[dict[str, Any]] = field(default_factory=list)
    confirmations: list[ConfirmationRequest] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    plans: list[list[PlanStep]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    # What checkpoint() reports before each successive tool call ("" = nobody took over).
    pause_note: list[str] = field(default_factory=list)

    async def text_delta(self, delta: str) -> None:
        self.deltas.append(delta)

    async def step_started(self, *, kind: str, action: str = "", arguments: dict[str, Any] | None = None) -> int:
        step = Step(id=len(self.steps) + 1, kind=kind, action=action, arguments=arguments)
        self.steps.append(step)
        self.events.append(f"start:{kind}:{action}")
        return step.id

    async def step_finished(
        self,
        step_id: int,
        *,
        ok: bool,
        observation: str = "",
        error: str = "",
        duration_ms: int | None = None,
        screenshot: bytes | None = None,
        target: RecordedTarget | None = None,
    ) -> None:
        step = self.steps[step_id - 1]
        step.finished, step.ok, step.observation, step.error = True, ok, observation, error
        step.duration_ms, step.screenshot = duration_ms, screenshot
        self.events.append(f"finish:{step.kind}:{step.action}")

    async def model_call(self, *, request: dict[str, Any], response: dict[str, Any], duration_ms: int) -> None:
        self.model_calls.append({"request": request, "response": response, "duration_ms": duration_ms})
        self.events.append("model_call")

    async def confirm(self, request: ConfirmationRequest) -> bool:
        self.confirmations.append(request)
        if self.confirm_answer is None:
            await asyncio.Event().wait()
        return bool(self.confirm_answer)

    async def notify(self, message: str) -> None:
        self.notices.append(message)

    async def checkpoint(self) -> str:
        return self.pause_note.pop(0) if self.pause_note else ""

    async def plan_updated(self, steps: list[PlanStep]) -> None:
        self.plans.append(steps)

    @property
    def text(self) -> str:
        return "".join(self.deltas)

    def actions(self) -> list[Step]:
        return [step for step in self.steps if step.kind == "action"]


class NoBrowser:
    """A TabControl whose browser died: every use says so, like a pool session after a crash."""

    REASON = "the browser process exited unexpectedly"

    @property
    def active_page(self) -> Any:
        raise BrowserCrashedError(self.REASON)

    async def list_tabs(self) -> list[TabInfo]:
        raise BrowserCrashedError(self.REASON)

    def tab_ids(self) -> list[str]:
        raise BrowserCrashedError(self.REASON)

    async def open_tab(self, url: str | None = None) -> TabInfo:
        raise BrowserCrashedError(self.REASON)

    async def switch_tab(self, tab_id: str) -> TabInfo:
        raise BrowserCrashedError(self.REASON)

    async def close_tab(self, tab_id: str) -> list[TabInfo]:
        raise BrowserCrashedError(self.REASON)


def model(base_url: str, **capabilities: Any) -> ModelConfig:
    """The scripted model as an OpenAI-like provider (tools, vision, parallel calls) unless told otherwise."""
    values: dict[str, Any] = {"provider": "openai", "timeout_s": 10.0, **capabilities}
    return ModelConfig(base_url=base_url, model=values.pop("name", "scripted"), **values)


def config(base_url: str, *, safety: SafetyConfig | None = None, **overrides: Any) -> AgentConfig:
    """A test AgentConfig: quick retries; pages on 127.0.0.1 reachable unless the test sets its own safety."""
    capabilities = overrides.pop("capabilities", {})
    return AgentConfig(
        model=model(base_url, **capabilities),
        retry_backoff_s=0.01,
        safety=safety or SafetyConfig(block_private_networks=False),
        **overrides,
    )


async def abort_when(task: asyncio.Task[Any], condition: Callable[[], bool], within_s: float = 5.0) -> float:
    """Cancel the turn's task (the worker's abort) once `condition` holds; return how long it took to stop."""
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, "the turn never reached the point to abort"
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # well inside the slow part
    cancelled_at = time.monotonic()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return time.monotonic() - cancelled_at
    raise AssertionError("the turn finished instead of being cancelled")


# -- reading requests -------------------------------------------------------------------------------------------

ELEMENT_LINE = re.compile(r"^\[(\d+)\]\*? (\S+)(.*)$", re.MULTILINE)


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def observations(request: dict[str, Any]) -> list[str]:
    """The tool results the agent sent: tool messages (function calling) or result messages (fenced JSON)."""
    out = []
    for message in request["messages"]:
        text = message_text(message)
        if message["role"] == "tool" or (message["role"] == "user" and text.startswith(RESULTS_INTRO)):
            out.append(text)
    return out


def user_request(request: dict[str, Any]) -> str:
    """The user's latest message (the agent adds the page summary and tool results as user messages too)."""
    for message in reversed(request["messages"]):
        text = message_text(message)
        if message["role"] == "user" and not text.startswith(AGENT_ADDED):
            return text
    return ""


def last_observation(request: dict[str, Any]) -> str:
    found = observations(request)
    return found[-1] if found else ""


def find_index(request: dict[str, Any], label: str, kind: str | None = None) -> int:
    """The [index] of the element whose text (or label) is `label`, from the latest element list the agent sent."""
    for text in reversed(observations(request)):
        for match in ELEMENT_LINE.finditer(text):
            index, tag, rest = match.groups()
            if f'"{label}"' in rest.split(" value=")[0] and (kind is None or tag == kind):
                return int(index)
    raise AssertionError(f"no element {label!r} in the observations the agent sent")


def calls_made(request: dict[str, Any]) -> list[str]:
    """Names of the tools the model called so far in this turn, in order (both protocols)."""
    names: list[str] = []
    for message in request["messages"]:
        if message["role"] != "assistant":
            continue
        for call in message.get("tool_calls") or ():
            names.append(call["function"]["name"])
        for block in re.findall(r"```json\s*(.*?)```", message_text(message), re.DOTALL):
            value = json.loads(block)
            names.extend(item["tool"] for item in (value if isinstance(value, list) else [value]))
    return names


def fenced(tool: str, arguments: dict[str, Any], thought: str = "") -> str:
    """A reply in the fenced-JSON protocol."""
    block = json.dumps({"tool": tool, "arguments": arguments})
    return f"{thought}\n```json\n{block}\n```" if thought else f"```json\n{block}\n```"


# -- a scripted model for the order-form task (agent tests and the dashboard's end-to-end test) -----------------

RESULT = re.compile(r"Thanks, (?P<name>[^!]+)! Your card goes to (?P<email>\S+)\. Order number (?P<number>[\w-]+)\.")


def act(protocol: str, tool: str, arguments: dict[str, Any]) -> Reply:
    if protocol == "native":
        return Reply(tool_calls=[{"name": tool, "arguments": arguments}])
    return Reply(content=fenced(tool, arguments, thought=f"Next: {tool}."))


def form_filler(protocol: str) -> Any:
    """Order a card: open the page, look, fill name and email, submit, read the result. Every index comes from
    the element list the agent sent; the answer comes from the page text after the click."""

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if not made:
            url = re.search(r"http://\S+", user_request(request))
            assert url is not None
            return act(protocol, "navigate", {"url": url.group(0)})
        if made[-1] == "navigate":
            return act(protocol, "get_elements", {})
        if made.count("type") == 0:
            return act(protocol, "type", {"index": find_index(request, "Name", "input"), "text": "Ada Lovelace"})
        if made.count("type") == 1:
            return act(protocol, "type", {"index": find_index(request, "Email", "input"), "text": "ada@example.com"})
        if "click" not in made:
            return act(protocol, "click", {"index": find_index(request, "Submit", "button")})
        found = RESULT.search(last_observation(request))
        assert found is not None, last_observation(request)
        return Reply(content=f"Done: the card for {found['name']} goes to {found['email']}, order {found['number']}.")

    return handler


def form_reader(request: dict[str, Any]) -> Reply:
    """The order form without a look-up: every index from what the last action's result showed of the page (the
    whole element list after navigating, what changed after typing)."""
    made = calls_made(request)
    if not made:
        url = re.search(r"http://\S+", user_request(request))
        assert url is not None
        return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": url.group(0)}}])
    plan = [("type", "Name", "input", {"text": "Ada Lovelace"}), ("type", "Email", "input", {"text": "ada@example.com"}),
            ("click", "Submit", "button", {})]  # fmt: skip
    if len(made) <= len(plan):
        name, label, kind, extra = plan[len(made) - 1]
        return Reply(tool_calls=[{"name": name, "arguments": {"index": find_index(request, label, kind), **extra}}])
    return Reply(content="Done.")
