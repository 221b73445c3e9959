"""The agent's turn in a worker: the conversation's models and settings, its history and shared tabs, the
browser session's tabs, and the sink that records every step."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings

from agents.config import AgentConfig
from agents.llm import LLMError, NoModelConfiguredError
from agents.loop import run_agent_turn
from agents.safety import SafetyConfig
from agents.shared_tabs import shared_tabs_message
from browser_pool.session import Session
from webapp.conversations.browser_selectors import conversation_uploads, shared_tab_contents
from webapp.conversations.models import Conversation, Message
from webapp.conversations.services import message_create
from webapp.llm.selectors import models_for_conversation
from webapp.runs.models import Run
from webapp.runs.selectors import run_history
from workers.sink import WorkerSink
from workers.turns import finish


def safety_config(conversation: Conversation) -> SafetyConfig:
    return SafetyConfig(
        confirm_mode="confirm" if conversation.confirm_mode == Conversation.ConfirmMode.CONFIRM else "auto",
        allowed_domains=tuple(settings.HIVE_ALLOWED_DOMAINS),
        denied_domains=tuple(settings.HIVE_DENIED_DOMAINS),
        block_private_networks=settings.HIVE_BLOCK_PRIVATE_NETWORKS,
        always_allowed_origins=tuple(settings.HIVE_OWN_ORIGINS),
    )


def _turn_inputs(run: Run) -> tuple[Conversation, list[tuple[str, str]], list[dict[str, str]], dict[str, object]]:
    conversation = Conversation.objects.get(pk=run.conversation_id)
    shared = shared_tab_contents(run_metadata=run.metadata, conversation_id=run.conversation_id)
    uploads = conversation_uploads(conversation_id=run.conversation_id)
    return conversation, run_history(run=run), shared, uploads


async def agent_turn(run: Run, session: Session, sink: WorkerSink) -> None:
    conversation, history, shared, uploads = await database_sync_to_async(_turn_inputs)(run)
    try:
        model, fallback = await database_sync_to_async(models_for_conversation)(
            profile_id=conversation.model_profile_id
        )
    except NoModelConfiguredError as exc:
        await finish(run.pk, Run.Status.FAILED, str(exc))
        return
    config = AgentConfig(
        model=model,
        fallback_model=fallback,
        max_tool_calls=settings.HIVE_AGENT_MAX_TOOL_CALLS,
        tool_timeout_s=settings.HIVE_AGENT_TOOL_TIMEOUT_S,
        loop_repeat_limit=settings.HIVE_AGENT_LOOP_LIMIT,
        confirm_timeout_s=settings.HIVE_CONFIRM_TIMEOUT_S + 30,
        show_reasoning=conversation.show_reasoning,
        safety=safety_config(conversation),
    )
    context = shared_tabs_message(shared)
    try:
        result = await run_agent_turn(
            config=config,
            history=history,
            tabs=session,
            sink=sink,
            uploads=uploads,
            context_messages=[context] if context else [],
        )
    except LLMError as exc:
        await sink.close()
        await finish(run.pk, Run.Status.FAILED, str(exc))
        return
    await sink.close()
    await database_sync_to_async(message_create)(
        conversation_id=run.conversation_id, role=Message.Role.ASSISTANT, content=result.reply, run_id=run.pk
    )
    await finish(
        run.pk, Run.Status.SUCCEEDED, prompt=result.usage.prompt_tokens, completion=result.usage.completion_tokens
    )
