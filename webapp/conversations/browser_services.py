"""Writes for a conversation's browser: its saved session, its tabs, the files uploaded to it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from webapp.conversations.models import BrowserSession, Conversation, ConversationFile
from webapp.core.events import publish_on_commit
from webapp.core.exceptions import ApplicationError


@transaction.atomic
def browser_session_save(*, conversation_id: int, state: dict[str, Any]) -> None:
    BrowserSession.objects.update_or_create(
        conversation_id=conversation_id, defaults={"state": state, "saved_at": timezone.now()}
    )


@transaction.atomic
def browser_session_set_tabs(*, conversation_id: int, tabs: list[dict[str, Any]]) -> None:
    if not Conversation.objects.filter(pk=conversation_id).exists():
        return  # deleted while its session was still open
    BrowserSession.objects.update_or_create(conversation_id=conversation_id, defaults={"tabs": tabs})
    publish_on_commit(conversation_id, {"type": "tabs.updated", "tabs": tabs})


@transaction.atomic
def conversation_file_add(*, conversation: Conversation, upload: UploadedFile) -> ConversationFile:
    if upload.size is None or upload.size > settings.HIVE_UPLOAD_MAX_BYTES:
        raise ApplicationError(f"The file is too large (at most {settings.HIVE_UPLOAD_MAX_BYTES // 1_000_000} MB).")
    name = (upload.name or "upload").replace("/", "_").replace("\\", "_")[:200]
    return ConversationFile.objects.create(
        conversation=conversation, file=upload, name=name, size=upload.size, content_type=upload.content_type or ""
    )
