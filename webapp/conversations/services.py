"""Writes for conversations and their messages."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from rest_framework import status

from webapp.conversations.models import Conversation, Message
from webapp.conversations.serializers import ConversationOutput, MessageOutput
from webapp.core.events import publish_on_commit
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run
from webapp.runs.services import run_create


def _title_from(content: str) -> str:
    first_line = content.strip().splitlines()[0] if content.strip() else ""
    return first_line[:80]


@transaction.atomic
def conversation_create(*, owner: AbstractBaseUser, title: str = "") -> Conversation:
    return Conversation.objects.create(owner=owner, title=title.strip())


@transaction.atomic
def conversation_update(*, conversation: Conversation, title: str) -> Conversation:
    conversation.title = title.strip()
    conversation.save(update_fields=["title", "updated_at"])
    publish_on_commit(
        conversation.pk, {"type": "conversation.updated", "conversation": ConversationOutput(conversation).data}
    )
    return conversation


@transaction.atomic
def conversation_delete(*, conversation: Conversation) -> None:
    if Run.objects.filter(conversation=conversation, status__in=Run.ACTIVE).exists():
        raise ApplicationError(
            "Stop the running turn before deleting the conversation.", status_code=status.HTTP_409_CONFLICT
        )
    conversation.delete()


@transaction.atomic
def message_send(*, conversation: Conversation, content: str) -> tuple[Message, Run]:
    """Store the user's message and queue a run for it; the worker picks it up after the commit."""
    content = content.strip()
    if not content:
        raise ApplicationError("The message is empty.")
    if len(content) > settings.HIVE_MESSAGE_MAX_CHARS:
        raise ApplicationError(f"The message is too long (at most {settings.HIVE_MESSAGE_MAX_CHARS} characters).")
    conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
    if Run.objects.filter(conversation=conversation, status__in=Run.ACTIVE).exists():
        raise ApplicationError(
            "The agent is still working on the previous message. Wait for it or stop it.",
            status_code=status.HTTP_409_CONFLICT,
        )
    try:
        with transaction.atomic():
            run = run_create(conversation=conversation)
    except IntegrityError as exc:  # a concurrent send won the race for the conversation's one active run
        raise ApplicationError(
            "The agent is still working on the previous message.", status_code=status.HTTP_409_CONFLICT
        ) from exc
    message = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=content, run=run)
    if not conversation.title:
        conversation.title = _title_from(content)
    conversation.save(update_fields=["title", "updated_at"])
    publish_on_commit(conversation.pk, {"type": "message.created", "message": MessageOutput(message).data})
    return message, run


@transaction.atomic
def message_create(*, conversation_id: int, role: str, content: str, run_id: int | None = None) -> Message:
    message = Message.objects.create(conversation_id=conversation_id, role=role, content=content, run_id=run_id)
    Conversation.objects.filter(pk=conversation_id).update(updated_at=message.created_at)
    publish_on_commit(conversation_id, {"type": "message.created", "message": MessageOutput(message).data})
    return message
