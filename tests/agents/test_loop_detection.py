"""Loop detection that understands pages: only acting calls count, and only on a page that did not change — a
checkbox that toggles or a field whose value changed is a new page state; looking again never counts."""

from __future__ import annotations

from typing import Any

import pytest

from agents import run_agent_turn
from agents.safety import SafetyConfig
from browser_pool.session import Session
from tests.agents.support import RecordingSink, act, calls_made, config, find_index
from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PLAN = ["get_elements"] * 5 + ["click"] * 4 + ["type"] * 4


async def test_only_unchanged_pages_and_acting_calls_count(
    model_server: ScriptedLLM, sink: RecordingSink, site: str, session: Session
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        done = len(calls_made(request))
        if done >= len(PLAN):
            return Reply(content="Done.")
        tool = PLAN[done]
        if tool == "get_elements":
            return act("native", "get_elements", {})
        if tool == "click":
            return act("native", "click", {"index": find_index(request, "Send me news")})
        return act("native", "type", {"index": find_index(request, "Name", "input"), "text": "Ada"})

    model_server.script(handler)
    await session.active_page.goto(f"{site}/loop.html")
    await run_agent_turn(
        config=config(model_server.base_url, safety=SafetyConfig(always_allowed_origins=(site,)), loop_repeat_limit=3),
        history=[("user", "x")],
        tabs=session,
        sink=sink,
    )
    steps = sink.actions()
    looks, clicks, types = steps[:5], steps[5:9], steps[9:]
    assert all(step.ok for step in looks), "looking again is never a loop"
    assert all(step.ok for step in clicks), "each click toggles the checkbox: a new page state every time"
    assert await session.active_page.is_checked("#news") is False  # clicked four times
    # The first type changes the field; the next ones find it as they leave it: the third of those is refused.
    assert [step.ok for step in types[:3]] == [True, True, True]
    refused = types[3]
    assert not refused.ok
    assert "same arguments 3 times on an unchanged page" in refused.error
    assert "try a different element or approach" in refused.observation, "the refusal says what to do instead"
