"""The worker's time limits come from one settings object, each step past the one before: the agent ends the turn
itself first, then the worker cancels it, then the task stops waiting."""

from __future__ import annotations

from typing import Any

from workers.limits import time_limits


def test_each_limit_comes_after_the_one_before(settings: Any) -> None:
    settings.HIVE_TURN_TIMEOUT_S = 300
    settings.HIVE_TURN_GRACE_S = 20
    settings.HIVE_HARD_KILL_S = 10
    settings.HIVE_ACTION_TIMEOUT_S = 90
    limits = time_limits()
    assert limits.turn_s == 300
    assert limits.turn_s < limits.turn_cancel_s == 320 < limits.turn_task_s == 330
    assert limits.action_s < limits.action_task_s == 100
