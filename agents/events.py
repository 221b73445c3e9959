"""How the agent reports what it does and asks the user. The worker injects a sink that persists every
report through Django services and publishes it to the conversation's websocket group."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from browser_pool.types import JsonObject, RecordedTarget

SafetyLevel = Literal["auto", "notify", "confirm", "block"]


@dataclass(frozen=True, slots=True)
class ConfirmationRequest:
    """A step that needs the user's yes before it runs."""

    step_id: int
    action: str
    arguments: JsonObject
    reason: str  # why it needs a yes, in words a user understands
    url: str = ""
    # How long the user has to answer; None leaves it to the sink (the operator's default).
    timeout_s: float | None = None


@dataclass(frozen=True, slots=True)
class TargetFacts:
    """What the safety policy is told of the element an action aims at (for a key press without a target, the
    focused element): its visible text, and whether it is a button-like control Space or Enter presses like a click."""

    text: str = ""
    pressable: bool = False


@dataclass(slots=True)
class PlanStep:
    id: str
    title: str
    depends_on: list[str] = field(default_factory=list)
    status: Literal["pending", "running", "done", "failed", "skipped"] = "pending"


class EventSink(Protocol):
    async def text_delta(self, delta: str) -> None:
        """A piece of the assistant's reply as it streams."""

    async def step_started(self, *, kind: str, action: str = "", arguments: JsonObject | None = None) -> int:
        """A step begins (kind: "thought" | "action" | "system"); returns its id."""

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
        """The step ended: its observation (what the model, the person or the script was told), or its error, and a
        JPEG screenshot; for an action aimed at an element, the record of that element (browser_pool.replay)."""

    async def model_call(self, *, request: dict[str, Any], response: dict[str, Any], duration_ms: int) -> None:
        """The exact payload sent to the model and what came back (the run's debug log)."""

    async def confirm(self, request: ConfirmationRequest) -> bool:
        """Pause until the owner (or a controller) approves or denies; no answer within the request's timeout (or the
        sink's own) is a no."""

    async def notify(self, message: str) -> None:
        """Tell the user about a step that runs without asking (the "notify" safety level)."""

    async def plan_updated(self, steps: list[PlanStep]) -> None:
        """The published plan or its progress changed."""

    async def checkpoint(self) -> str:
        """Called before each tool call. While a person holds the browser's controls this waits until they hand
        them back, then says what happened (e.g. "ada took over the browser and handed it back"); else ""."""
