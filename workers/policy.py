"""How the agent is set up for a conversation: its safety policy and its limits. Agent turns, MCP calls and the
healing of a workflow's step use the same."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

from agents.config import AgentConfig
from agents.events import ConfirmationRequest
from agents.safety import SafetyConfig, SafetyPolicy, dialog_answerer
from browser_pool.actions.watch import DialogAnswerer, DialogInfo
from webapp.conversations.models import Conversation
from workers.limits import time_limits

# Room beside a field value's part in what the agent keeps of one result (the element's other details, the part's note).
VALUE_PART_ROOM_CHARS = 2_000


def safety_config(conversation: Conversation) -> SafetyConfig:
    return SafetyConfig(
        confirm_mode="confirm" if conversation.confirm_mode == Conversation.ConfirmMode.CONFIRM else "auto",
        allowed_domains=tuple(settings.HIVE_ALLOWED_DOMAINS),
        denied_domains=tuple(settings.HIVE_DENIED_DOMAINS),
        block_private_networks=True,
        always_allowed_origins=tuple(settings.HIVE_OWN_ORIGINS),
        allowed_addresses=tuple(settings.HIVE_EGRESS_ALLOW),
    )


def agent_config(
    conversation: Conversation, model: Any, fallback: Any, *, max_tool_calls: int | None = None
) -> AgentConfig:
    limits = time_limits()
    return AgentConfig(
        model=model,
        fallback_model=fallback,
        max_tool_calls=max_tool_calls or settings.HIVE_AGENT_MAX_TOOL_CALLS,
        tool_timeout_s=limits.tool_call_s,
        turn_timeout_s=limits.turn_s,  # the agent ends the turn itself before the worker has to cancel it
        loop_repeat_limit=settings.HIVE_AGENT_LOOP_LIMIT,
        confirm_timeout_s=settings.HIVE_CONFIRM_TIMEOUT_S + 30,
        show_reasoning=conversation.show_reasoning,
        safety=safety_config(conversation),
        # One part of a long field value always reaches the model whole, whatever part size the operator set.
        observation_max_chars=max(12_000, settings.HIVE_ELEMENT_VALUE_CHARS + VALUE_PART_ROOM_CHARS),
    )


def run_dialog_answerer(
    conversation: Conversation, confirm: Callable[[ConfirmationRequest], Awaitable[bool]]
) -> DialogAnswerer:
    """During a run, a page's confirm, prompt or beforeunload on a sensitive page asks the user, as a step would:
    a confirmation with the dialog's text, no yes in time being a no."""
    timeout_s = settings.HIVE_CONFIRM_TIMEOUT_S

    async def ask(dialog: DialogInfo, reason: str) -> bool:
        arguments = {"dialog": dialog.kind, "message": dialog.message}
        return await confirm(
            ConfirmationRequest(
                step_id=0, action="page_dialog", arguments=arguments, reason=reason, url=dialog.url, timeout_s=timeout_s
            )
        )

    return dialog_answerer(SafetyPolicy(safety_config(conversation)), ask, timeout_s=timeout_s + 5)
