"""Writes for a conversation's files: a download its browser made, kept with the conversation."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files import File
from django.db import transaction

from webapp.conversations.file_selectors import downloads_kept, file_payload
from webapp.conversations.files import SNIFF_BYTES, safe_name, sniffed_type
from webapp.conversations.models import Conversation, ConversationFile
from webapp.core.events import publish_on_commit
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run, Step


@transaction.atomic
def download_keep(
    *,
    conversation_id: int,
    name: str,
    source_url: str,
    path: Path,
    size: int,
    run_id: int | None = None,
    step_id: int | None = None,
) -> ConversationFile:
    """Store the file at `path` (the worker's copy of what the page downloaded) as the conversation's download.

    The limits are checked again here, where they are kept: the size, and the owner's quota with their other
    downloads (their row is locked, so two downloads finishing together cannot both slip under it)."""
    conversation = Conversation.objects.filter(pk=conversation_id).first()
    if conversation is None:
        raise ApplicationError(f"{name} was not kept: its conversation was deleted.")
    shown = safe_name(name)
    if size > settings.HIVE_DOWNLOAD_MAX_BYTES:
        raise ApplicationError(
            f"{shown} was not kept: it is larger than the {settings.HIVE_DOWNLOAD_MAX_BYTES / 1e6:g} MB a download "
            "may be."
        )
    quota = settings.HIVE_DOWNLOAD_QUOTA_BYTES
    if quota > 0:
        User.objects.select_for_update().filter(pk=conversation.owner_id).exists()
        if downloads_kept(owner_id=conversation.owner_id) + size > quota:
            raise ApplicationError(
                f"{shown} was not kept: the conversation's owner keeps {quota / 1e6:g} MB of downloads at most, and "
                "this one does not fit (delete older conversations, or ask the operator)."
            )
    # A run or step deleted meanwhile names nothing: the file stays, without them.
    run_id = run_id if run_id is not None and Run.objects.filter(pk=run_id).exists() else None
    step_id = step_id if step_id is not None and Step.objects.filter(pk=step_id).exists() else None
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
        handle.seek(0)
        stored = ConversationFile.objects.create(
            conversation=conversation,
            file=File(handle, name=shown),
            name=shown,
            size=size,
            content_type=sniffed_type(head),
            origin=ConversationFile.Origin.DOWNLOAD,
            source_url=source_url[:2000],
            run_id=run_id,
            step_id=step_id,
        )
    publish_on_commit(conversation.pk, {"type": "file.created", "file": file_payload(stored)})
    return stored
