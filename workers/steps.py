"""The step executor's context for the worker's callers other than the agent: a person's action from the dashboard,
a script's call through REST or MCP, and a workflow replay's steps. Each goes through `agents.step.run_step` like the
agent's tool calls; only what is decided here differs.

- Judged: a program's steps (an MCP client's, a replay's) are judged by the conversation's safety policy; a person's
  own action from the dashboard or the REST API is their decision (the network firewall still decides where the
  browser's traffic goes).
- Asked: a confirm-level step waits for a yes in the dashboard (`Asking`); a scheduled replay says how itself.
- Reported: the action's structured result as JSON (what an MCP client and the dashboard read; a replay checks its
  effect from it), and a picture of the page after any step that may have changed it.
- Recorded: through the run's `WorkerSink`, which persists every step with Django services.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from channels.db import database_sync_to_async
from django.conf import settings

from agents.observation import PageView, screenshot
from agents.safety import SafetyPolicy
from agents.secrets import Secrets
from agents.step import Asking, Observed, PageAfter, StepCall, StepContext
from agents.tools.base import Tool, ToolContext, ToolOutput, ToolRegistry
from browser_pool.errors import BrowserCrashedError
from browser_pool.session import Session
from browser_pool.types import JsonObject
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from workers.limits import time_limits
from workers.policy import safety_config
from workers.sink import WorkerSink

SCREENSHOT_QUALITY = 60
# Playwright's own waits inside an action (finding the element, navigation settles ...), as for the agent.
ACTION_TIMEOUT_MS = 5_000


class ActionReport:
    """What a person or a script reads of a step: the action's structured result as JSON (a tool's text for other
    tools; what went wrong and what to try for a step that did not run), and a picture of the page after any step
    that may have changed it."""

    async def look(self, context: StepContext) -> PageView | None:
        return None  # the result says what changed; the page itself is in the picture

    async def render(
        self, context: StepContext, call: StepCall, tool: Tool | None, output: ToolOutput, after: PageAfter | None
    ) -> Observed:
        note = after.note if after is not None else ""
        report: JsonObject | None = None
        if output.action is not None:
            report = output.action.as_dict()
        elif not output.ok:
            report = {"ok": False, "action": call.name, "error": output.error, "suggestion": output.suggestion}
        if report is None:
            text = f"{output.text}\n\n{note}" if note else output.text
        else:
            text = json.dumps({**report, "left_page": note} if note else report, ensure_ascii=False, default=str)
        image = output.screenshot
        if image is None and output.page_changed:
            image = await screenshot(context.tabs, quality=SCREENSHOT_QUALITY, hidden=context.hidden())
        return Observed(text, image)


class BrowserLost:
    """After a step that failed: when the browser turns out to have died, the run ends as the browser's failure (the
    session is restored on the next run) instead of reporting a page problem."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def __call__(self, step_id: int, call: StepCall, output: ToolOutput) -> None:
        if not output.ok and await self.session.lost_within(1.0):
            raise BrowserCrashedError(self.session.lost_reason or "the browser crashed")


def conversation_asking(*, notices: bool = False) -> Asking:
    """Asked in the dashboard, like the agent's questions: no answer within HIVE_CONFIRM_TIMEOUT_S is a no."""
    return Asking(limit_s=settings.HIVE_CONFIRM_TIMEOUT_S + 30, notices=notices)


async def worker_step_context(
    run: Run,
    session: Session,
    sink: WorkerSink,
    *,
    tools: Sequence[Tool],
    judged: bool,
    asking: Asking | None = None,
    secrets: Secrets | None = None,
) -> StepContext:
    """The context for steps of `run` with these tools: judged by the conversation's safety policy or not."""
    conversation = await database_sync_to_async(Conversation.objects.get)(pk=run.conversation_id) if judged else None
    # Only upload_file reads the conversation's files: other steps skip the query.
    uploads = (
        await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
        if any(tool.name == "upload_file" for tool in tools)
        else {}
    )
    remembered = sink.masking(secrets, session)
    return StepContext(
        registry=ToolRegistry(tools),
        tool_ctx=ToolContext(tabs=session, sink=sink, uploads=uploads, action_timeout_ms=ACTION_TIMEOUT_MS),
        report=ActionReport(),
        policy=SafetyPolicy(safety_config(conversation)) if conversation is not None else None,
        asking=asking or conversation_asking(),
        secrets=remembered,
        after_act=(BrowserLost(session),),
        tool_timeout_s=time_limits().tool_call_s,
    )
