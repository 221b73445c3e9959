"""Writes for conversations and their messages."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.db import transaction

from webapp.conversations import live
from webapp.conversations.browser_selectors import tab_contents_for_send
from webapp.conversations.models import Conversation, ConversationFile, Message
from webapp.conversations.serializers import ConversationOutput, MessageOutput
from webapp.core import placement
from webapp.core.events import command_session, publish_on_commit, publish_to_user
from webapp.core.exceptions import ApplicationError
from webapp.llm.models import ModelProfile
from webapp.runs.models import Recording, Run, Step
from webapp.runs.services import run_create, run_ensure_idle
from webapp.sharing.selectors import shares_valid

log = logging.getLogger(__name__)


def _title_from(content: str) -> str:
    first_line = content.strip().splitlines()[0] if content.strip() else ""
    return first_line[:80]


def _check_profile(owner_id: int, profile: ModelProfile | None) -> None:
    if profile is not None and profile.owner_id != owner_id:
        raise ApplicationError("Unknown model profile.")


@transaction.atomic
def conversation_create(
    *,
    owner: User,
    title: str = "",
    model_profile: ModelProfile | None = None,
    show_reasoning: bool = False,
    confirm_mode: str = Conversation.ConfirmMode.AUTO,
    origin: str = Conversation.Origin.DASHBOARD,
    trace_runs: bool = False,
) -> Conversation:
    _check_profile(owner.pk, model_profile)
    return Conversation.objects.create(
        owner=owner,
        title=title.strip(),
        model_profile=model_profile,
        show_reasoning=show_reasoning,
        confirm_mode=confirm_mode,
        origin=origin,
        trace_runs=trace_runs,
    )


@transaction.atomic
def conversation_update(*, conversation: Conversation, **changes: Any) -> Conversation:
    """Change any of: title, model_profile, show_reasoning, confirm_mode, trace_runs."""
    if "model_profile" in changes:
        _check_profile(conversation.owner_id, changes["model_profile"])
    if "title" in changes:
        changes["title"] = str(changes["title"]).strip()
    for field, value in changes.items():
        setattr(conversation, field, value)
    conversation.save(update_fields=[*changes, "updated_at"])
    publish_on_commit(
        conversation.pk, {"type": "conversation.updated", "conversation": ConversationOutput(conversation).data}
    )
    return conversation


@transaction.atomic
def conversation_delete(*, conversation: Conversation) -> None:
    run_ensure_idle(conversation=conversation, refusal="Stop the running turn before deleting the conversation.")
    conversation_id = conversation.pk
    teammates = list(
        shares_valid().filter(conversation=conversation, user__isnull=False).values_list("user_id", flat=True)
    )
    files = [
        *Step.objects.filter(run__conversation=conversation)
        .exclude(screenshot="")
        .values_list("screenshot", flat=True),
        *ConversationFile.objects.filter(conversation=conversation).values_list("file", flat=True),
        *Run.objects.filter(conversation=conversation).exclude(trace="").values_list("trace", flat=True),
        *Recording.objects.filter(run__conversation=conversation).exclude(file="").values_list("file", flat=True),
    ]
    conversation.delete()
    transaction.on_commit(
        lambda: conversation_forget(conversation_id=conversation_id, files=files, teammates=teammates)
    )


def conversation_forget(*, conversation_id: int, files: list[str], teammates: Iterable[int] = ()) -> None:
    """After a conversation is deleted: close everyone's sockets on it (4403), take it out of the lists of the
    `teammates` it was shared with, have its worker drop the browser session unsaved, remove its files (screenshots,
    uploads, traces) and its keys in Redis. Best effort, each part alone: a part that fails is logged and the rest still
    happens."""
    for user_id in set(teammates):
        publish_to_user(user_id, {"type": "conversation.unshared", "conversation": conversation_id})
    for name in files:
        try:
            default_storage.delete(name)
        except OSError as exc:
            log.warning("could not delete %s of conversation %s: %r", name, conversation_id, exc)
    try:
        live.access_revoked_for_all(conversation_id=conversation_id)
        command_session(conversation_id, {"type": "session.discard"})
        placement.client().delete(
            placement.viewers_key(conversation_id),
            placement.session_home_key(conversation_id),
            f"hive:control:{conversation_id}",
        )
    except Exception as exc:
        log.warning("could not close the live session of deleted conversation %s: %r", conversation_id, exc)


@transaction.atomic
def message_send(
    *, conversation: Conversation, content: str, author: User, tab_ids: list[str] | None = None
) -> tuple[Message, Run]:
    """Store the user's message and queue a run for it, started by its author; the worker picks it up after the
    commit.

    ``tab_ids`` are the tabs shared with this send: they replace the previous send's set (an empty list
    shares none), and must be tabs added to the conversation's context.
    """
    content = content.strip()
    if not content:
        raise ApplicationError("The message is empty.")
    if len(content) > settings.HIVE_MESSAGE_MAX_CHARS:
        raise ApplicationError(f"The message is too long (at most {settings.HIVE_MESSAGE_MAX_CHARS} characters).")
    shared = tab_contents_for_send(conversation=conversation, tab_ids=tab_ids or [])
    conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
    run_ensure_idle(
        conversation=conversation, refusal="The agent is still working on the previous message. Wait for it or stop it."
    )
    run = run_create(
        conversation=conversation,
        started_by=author,
        metadata={"shared_tabs": [{"id": t.tab_id, "title": t.title, "url": t.url} for t in shared]},
    )
    message = Message.objects.create(
        conversation=conversation, role=Message.Role.USER, content=content, run=run, author=author
    )
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
