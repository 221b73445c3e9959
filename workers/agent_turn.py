"""The agent's turn in a worker: the conversation's models and settings, its history and shared tabs, the
browser session's tabs, and the sink that records every step."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from channels.db import database_sync_to_async
from django.conf import settings

from agents.config import AgentConfig
from agents.llm import LLMClient, LLMError, NoModelConfiguredError
from agents.loop import run_agent_turn
from agents.shared_tabs import shared_tabs_message
from agents.tools.base import Tool
from agents.tools.content import content_tools
from agents.tools.memory import MemoryNote, memory_tools, openai_embedder
from agents.tools.reply import Persona, reply_tools
from browser_pool.session import Session
from webapp.conversations.browser_selectors import conversation_uploads, shared_tab_contents
from webapp.conversations.models import Conversation, Message
from webapp.conversations.services import message_create
from webapp.conversations.types import SharedTabContent
from webapp.llm.selectors import models_for_conversation
from webapp.memory.selectors import memory_for_user
from webapp.runs.models import Run
from webapp.runs.selectors import run_history
from workers.downloads import file_reader
from workers.handoff import ask_person_tools
from workers.policy import agent_config
from workers.sink import WorkerSink
from workers.turns import finish
from workers.vault import vault_secrets


@dataclass(slots=True)
class TurnInputs:
    conversation: Conversation
    history: list[tuple[str, str]]
    shared: list[SharedTabContent]
    uploads: dict[str, Path]
    notes: list[MemoryNote]
    personas: list[Persona]
    embedding_model: str


def _turn_inputs(run: Run) -> TurnInputs:
    conversation = Conversation.objects.select_related("model_profile").get(pk=run.conversation_id)
    notes, personas = memory_for_user(user_id=conversation.owner_id)
    profile = conversation.model_profile
    return TurnInputs(
        conversation=conversation,
        history=run_history(run=run),
        shared=shared_tab_contents(run_metadata=run.metadata, conversation_id=run.conversation_id),
        uploads=conversation_uploads(conversation_id=run.conversation_id),
        notes=notes,
        personas=personas,
        embedding_model=profile.embedding_model if profile else "",
    )


def agent_tools(inputs: TurnInputs, config: AgentConfig) -> list[Tool]:
    """Tools beside the browser actions: page content, memory search, replies in a persona's voice."""
    model = config.model
    assert model is not None

    def client() -> LLMClient:
        return LLMClient(model, backoff_base_s=config.retry_backoff_s)

    embed = openai_embedder(model, inputs.embedding_model) if inputs.embedding_model else None
    return [
        *content_tools(
            page_chars=settings.HIVE_CONTENT_LIMIT,
            model_client_factory=client,
            budget_tokens=settings.HIVE_AGENT_CHUNK_TOKENS,
            shared=inputs.shared,
            files=file_reader(inputs.conversation.pk),
        ),
        *(memory_tools(notes=inputs.notes, embed=embed) if inputs.notes else ()),  # nothing to search without notes
        *reply_tools(personas=inputs.personas, model_client_factory=client),
    ]


async def agent_turn(run: Run, session: Session, sink: WorkerSink) -> None:
    inputs = await database_sync_to_async(_turn_inputs)(run)
    conversation = inputs.conversation
    try:
        model, fallback = await database_sync_to_async(models_for_conversation)(
            profile_id=conversation.model_profile_id
        )
    except NoModelConfiguredError as exc:
        await finish(run.pk, Run.Status.FAILED, str(exc))
        return
    config = agent_config(conversation, model, fallback)
    context = shared_tabs_message(
        inputs.shared, page_chars=settings.HIVE_CONTENT_LIMIT, budget_tokens=settings.HIVE_AGENT_CHUNK_TOKENS
    )
    web_tools = sink.web_tools

    async def page_tools() -> list[Tool]:
        return web_tools.agent_tools(run.conversation_id) if web_tools is not None else []

    try:
        result = await run_agent_turn(
            config=config,
            history=inputs.history,
            tabs=session,
            sink=sink,
            extra_tools=[*agent_tools(inputs, config), *ask_person_tools(sink)],
            uploads=inputs.uploads,
            context_messages=[context] if context else [],
            page_tools=page_tools,
            secrets=sink.masking(await vault_secrets(run.pk), session),
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
