"""Reads for a conversation's files: the list, one file, and what a new download may still take of its owner's
quota."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet, Sum
from django.shortcuts import get_object_or_404
from django.urls import reverse

from webapp.conversations.models import Conversation, ConversationFile
from webapp.conversations.types import ConversationFilePayload


def file_url(file: ConversationFile) -> str:
    return reverse("file-download", args=[file.conversation_id, file.pk])


def file_payload(file: ConversationFile) -> ConversationFilePayload:
    return {
        "id": file.pk,
        "name": file.name,
        "size": file.size,
        "content_type": file.content_type,
        "origin": "download" if file.origin == ConversationFile.Origin.DOWNLOAD else "upload",
        "created_at": file.created_at.isoformat(),
        "url": file_url(file),
        "source_url": file.source_url,
        "run": file.run_id,
        "step": file.step_id,
    }


def conversation_files(*, conversation: Conversation) -> QuerySet[ConversationFile]:
    """Uploads and downloads alike, oldest first."""
    return ConversationFile.objects.filter(conversation=conversation)


def conversation_file_get(*, conversation: Conversation, file_id: int) -> ConversationFile:
    """A file of this conversation (404 for any other id: another conversation's file does not exist here)."""
    return get_object_or_404(ConversationFile, conversation=conversation, pk=file_id)


def public_url(path: str) -> str:
    """An address of this site as a program outside it reaches it (a webhook's receiver, an MCP client)."""
    base = settings.HIVE_PUBLIC_URL or (settings.HIVE_OWN_ORIGINS or ["http://localhost:8000"])[0]
    return f"{base.rstrip('/')}{path}"


def files_of_runs(*, run_ids: Iterable[int], absolute: bool = False) -> dict[int, list[ConversationFilePayload]]:
    """The files each run's steps downloaded, by run id (a replay's outputs); `absolute` gives their addresses
    with the site's public origin, for readers outside the dashboard."""
    found: dict[int, list[ConversationFilePayload]] = {}
    for file in ConversationFile.objects.filter(run_id__in=list(run_ids), origin=ConversationFile.Origin.DOWNLOAD):
        payload = file_payload(file)
        if absolute:
            payload["url"] = public_url(payload["url"])
        found.setdefault(int(file.run_id or 0), []).append(payload)
    return found


def files_of_run(*, run_id: int, absolute: bool = False) -> list[ConversationFilePayload]:
    return files_of_runs(run_ids=[run_id], absolute=absolute).get(run_id, [])


def downloads_kept(*, owner_id: int) -> int:
    """The bytes of the downloads kept in the conversations `owner_id` owns."""
    total = ConversationFile.objects.filter(
        conversation__owner_id=owner_id, origin=ConversationFile.Origin.DOWNLOAD
    ).aggregate(total=Sum("size"))["total"]
    return int(total or 0)


@dataclass(frozen=True, slots=True)
class Allowance:
    max_bytes: int
    limit: str  # in words, as in "larger than {limit}"


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:g} MB"


def download_allowance(*, conversation_id: int) -> Allowance:
    """What one more download of the conversation may take: the size limit, or what is left of its owner's quota
    when that is less. A conversation deleted meanwhile allows nothing."""
    largest = settings.HIVE_DOWNLOAD_MAX_BYTES
    conversation = Conversation.objects.filter(pk=conversation_id).only("owner_id").first()
    if conversation is None:
        return Allowance(0, "this conversation's storage (it was deleted)")
    quota = settings.HIVE_DOWNLOAD_QUOTA_BYTES
    if quota > 0:
        left = max(0, quota - downloads_kept(owner_id=conversation.owner_id))
        if left < largest:
            return Allowance(left, f"the {_megabytes(left)} left of the {_megabytes(quota)} the owner may keep")
    return Allowance(largest, f"the {_megabytes(largest)} a download may be")
