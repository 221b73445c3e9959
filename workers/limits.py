"""Every time limit of the worker in one place, from settings, each a step past the one before it:

1. `turn_s`: the agent ends its turn gracefully (it stops acting and answers with what it has);
2. `turn_s + grace_s`: the worker cancels the turn's task (the run fails with the reason; finished steps stay);
3. that `+ hard_s`: the Celery task gives up waiting for the loop (a stuck loop cannot hold a thread forever).
Actions by hand and tool calls have their own limits, with the same grace and hard steps after them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True, slots=True)
class TimeLimits:
    turn_s: float
    grace_s: float
    hard_s: float
    action_s: float
    tool_call_s: float

    @property
    def turn_cancel_s(self) -> float:
        return self.turn_s + self.grace_s

    @property
    def turn_task_s(self) -> float:
        return self.turn_cancel_s + self.hard_s

    @property
    def action_task_s(self) -> float:
        return self.action_s + self.hard_s


def time_limits() -> TimeLimits:
    return TimeLimits(
        turn_s=settings.HIVE_TURN_TIMEOUT_S,
        grace_s=settings.HIVE_TURN_GRACE_S,
        hard_s=settings.HIVE_HARD_KILL_S,
        action_s=settings.HIVE_ACTION_TIMEOUT_S,
        tool_call_s=settings.HIVE_AGENT_TOOL_TIMEOUT_S,
    )
