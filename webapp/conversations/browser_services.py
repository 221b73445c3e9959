"""Writes for a conversation's browser: its saved session, its tabs, the files uploaded to it."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from browser_pool.extract.types import ExtractedContent
from browser_pool.types import TabInfo
from webapp.conversations.browser_selectors import session_tabs, tab_content_payload
from webapp.conversations.file_selectors import file_payload
from webapp.conversations.files import SNIFF_BYTES, safe_name, sniffed_type
from webapp.conversations.models import BrowserSession, Conversation, ConversationFile, TabContent
from webapp.conversations.types import PageTools, SavedTab
from webapp.core.crypto import encrypt_document
from webapp.core.events import publish_on_commit, tools_updated_event
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.sharing.selectors import Access

# Adding a file to a conversation (a REST upload, or bytes or an address an MCP client sends) takes its owner: the
# file stays with the conversation and is offered to its agent. Putting in a file already there is an action.
FILE_ADD_NEEDS: Access = "owner"


@transaction.atomic
def browser_session_save(*, conversation_id: int, state: JsonObject) -> None:
    """`state` is browser_pool's SavedSession.as_dict(): cookies, storage, tabs and the secrets typed into its pages,
    kept encrypted, opaque here."""
    BrowserSession.objects.update_or_create(
        conversation_id=conversation_id, defaults={"state": encrypt_document(state), "saved_at": timezone.now()}
    )


@transaction.atomic
def browser_session_set_tabs(*, conversation_id: int, tabs: Sequence[TabInfo]) -> None:
    saved = [_saved(tab) for tab in tabs]
    # Every navigation changes the tabs: one UPDATE of the session there is, the row made only the first time.
    updated = BrowserSession.objects.filter(conversation_id=conversation_id).update(
        tabs=saved, updated_at=timezone.now()
    )
    if not updated:
        if not Conversation.objects.filter(pk=conversation_id).exists():
            return  # deleted while its session was still open
        BrowserSession.objects.update_or_create(conversation_id=conversation_id, defaults={"tabs": saved})
    publish_on_commit(
        conversation_id, {"type": "tabs.updated", "tabs": session_tabs(conversation_id=conversation_id, saved=saved)}
    )


def _saved(tab: TabInfo) -> SavedTab:
    return {"id": tab.id, "title": tab.title, "url": tab.url, "favicon": tab.favicon, "active": tab.active}


@transaction.atomic
def conversation_file_add(*, conversation: Conversation, upload: UploadedFile) -> ConversationFile:
    if upload.size is None or upload.size > settings.HIVE_UPLOAD_MAX_BYTES:
        raise ApplicationError(f"The file is too large (at most {settings.HIVE_UPLOAD_MAX_BYTES // 1_000_000} MB).")
    name = safe_name(upload.name or "", fallback="upload")
    upload.name = name
    # The type the client claimed is not believed: the bytes say what they are.
    head = upload.read(SNIFF_BYTES)
    upload.seek(0)
    stored = ConversationFile.objects.create(
        conversation=conversation, file=upload, name=name, size=upload.size, content_type=sniffed_type(head)
    )
    publish_on_commit(conversation.pk, {"type": "file.created", "file": file_payload(stored)})
    return stored


@transaction.atomic
def tab_content_save(*, conversation_id: int, tab_id: str, extracted: ExtractedContent) -> TabContent | None:
    """Store what was read from a tab (replacing the previous read) and tell the dashboard."""
    if not Conversation.objects.filter(pk=conversation_id).exists():
        return None
    item, _ = TabContent.objects.update_or_create(
        conversation_id=conversation_id,
        tab_id=tab_id,
        defaults={
            "title": extracted.title[:500],
            "url": extracted.url[:2000],
            "content": extracted.text,
            "method": extracted.method,
            "truncated": extracted.truncated,
            "length": extracted.length,
            "reason": extracted.reason,
            "extracted_at": timezone.now(),
        },
    )
    publish_on_commit(conversation_id, {"type": "tab.content", "content": tab_content_payload(item)})
    return item


@transaction.atomic
def tab_content_remove(*, conversation: Conversation, tab_id: str) -> None:
    TabContent.objects.filter(conversation=conversation, tab_id=tab_id).delete()
    publish_on_commit(conversation.pk, {"type": "tab.content.removed", "tab_id": tab_id})


@transaction.atomic
def browser_session_set_tools(*, conversation_id: int, snapshot: PageTools) -> None:
    """The active tab's tools changed (the page registered or removed one, a SKILL was injected, a tab switch)."""
    if not Conversation.objects.filter(pk=conversation_id).exists():
        return
    BrowserSession.objects.update_or_create(conversation_id=conversation_id, defaults={"tools": snapshot})
    publish_on_commit(conversation_id, tools_updated_event(snapshot))
