"""What one turn carries from phase to phase."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agents.config import AgentConfig
from agents.events import EventSink
from agents.llm import LLMClient, Usage
from agents.tools.base import Tool, ToolRegistry
from agents.transcript import Transcript

if TYPE_CHECKING:
    from agents.step import StepContext

# The tools the current page offers right now (WebMCP and SKILL tools), asked before every model call.
PageTools = Callable[[], Awaitable[Sequence[Tool]]]

STOP_MAX_TOOL_CALLS = "max_tool_calls"
STOP_LOOP = "loop"
STOP_TURN_TIMEOUT = "turn_timeout"


class StopTurn(Exception):
    """A safety valve ends the turn; `message` is what the user reads."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(slots=True)
class StepRecord:
    action: str
    ok: bool
    error: str = ""


@dataclass(slots=True)
class TurnState:
    config: AgentConfig
    sink: EventSink
    registry: ToolRegistry
    transcript: Transcript
    clients: list[LLMClient]
    # How this turn's tool calls are run (agents.step): its policy, confirmations, loop detector, the page as seen.
    steps_context: StepContext
    usage: Usage = field(default_factory=Usage)
    model_index: int = 0
    tool_calls: int = 0
    # The reply as streamed so far; a new model reply after tool calls starts a new paragraph.
    reply_parts: list[str] = field(default_factory=list)
    paragraph_pending: bool = False
    # After the tool-call limit: one more model call without tools, for the final answer.
    final_only: bool = False
    deadline: float | None = None
    steps: list[StepRecord] = field(default_factory=list)
    # Milliseconds per phase ("model", "observe", "action", "screenshot", "safety"), for the debug log and bench.
    timings: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    page_tools: PageTools | None = None

    @property
    def client(self) -> LLMClient:
        return self.clients[self.model_index]

    def remaining_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def check_deadline(self) -> None:
        remaining = self.remaining_s()
        if remaining is not None and remaining <= 0:
            raise StopTurn(
                STOP_TURN_TIMEOUT,
                f"I stopped because this turn took longer than {self.config.turn_timeout_s:g} s. "
                "The steps done so far are kept; ask me to continue if you want.",
            )

    async def emit(self, text: str) -> None:
        """Stream a piece of the reply to the user."""
        if not text:
            return
        if self.paragraph_pending and self.reply_parts:
            previous = self.reply_parts[-1]
            newlines = len(previous) - len(previous.rstrip("\n"))
            text = "\n" * max(0, 2 - newlines) + text.lstrip()
        self.paragraph_pending = False
        self.reply_parts.append(text)
        await self.sink.text_delta(text)

    @property
    def reply(self) -> str:
        return "".join(self.reply_parts).strip()
