"""Reads for a conversation's browser."""

from __future__ import annotations

from pathlib import Path

from django.shortcuts import get_object_or_404

from webapp.conversations.models import BrowserSession, Conversation, ConversationFile, TabContent
from webapp.conversations.types import PageTools, SavedTab, SessionTab, SharedTabContent, TabContext, no_page_tools
from webapp.core.crypto import decrypt_document
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.runs.types import RunMetadata


def tab_content_payload(item: TabContent) -> TabContext:
    return {
        "tab_id": item.tab_id,
        "title": item.title,
        "url": item.url,
        "method": item.method,
        "length": item.length,
        "truncated": item.truncated,
        "reason": item.reason,
        "extracted_at": item.extracted_at.isoformat() if item.extracted_at else None,
    }


def browser_session_state(*, conversation_id: int) -> JsonObject | None:
    """What browser_session_save kept (browser_pool's SavedSession.as_dict()), or None."""
    session = BrowserSession.objects.filter(conversation_id=conversation_id).only("state").first()
    state = decrypt_document(session.state) if session else {}
    return state or None


def browser_session_tabs(*, conversation: Conversation) -> list[SessionTab]:
    """The tabs as last seen, each with what was read from it when it was added to the context."""
    session = BrowserSession.objects.filter(conversation=conversation).only("tabs").first()
    return session_tabs(conversation_id=conversation.pk, saved=list(session.tabs) if session else [])


def session_tabs(*, conversation_id: int, saved: list[SavedTab]) -> list[SessionTab]:
    """Tabs as the worker saved them (TabInfo.as_dict()), each with what was read from it for the context."""
    contents = {
        item.tab_id: item for item in TabContent.objects.filter(conversation_id=conversation_id).defer("content")
    }
    tabs: list[SessionTab] = []
    for tab in saved:
        item = contents.get(str(tab.get("id")))
        tabs.append(
            {
                **tab,
                "favicon": _inert_favicon(tab.get("favicon")),
                "context": tab_content_payload(item) if item else None,
            }
        )
    return tabs


def _inert_favicon(value: object) -> str:
    """Viewers' browsers never fetch from the page's origin (it would tell a site who watches, and could point them
    at addresses inside their own network): only an icon already inlined as a data: image is passed on."""
    return value if isinstance(value, str) and value.startswith("data:image/") and len(value) <= 64_000 else ""


def tab_content_get(*, conversation: Conversation, tab_id: str) -> TabContent:
    return get_object_or_404(TabContent, conversation=conversation, tab_id=tab_id)


def tab_contents_for_send(*, conversation: Conversation, tab_ids: list[str]) -> list[TabContent]:
    """The shared tabs of one send, in the order given. Unknown ids raise ApplicationError (400)."""
    wanted = list(dict.fromkeys(tab_ids))
    found = {item.tab_id: item for item in TabContent.objects.filter(conversation=conversation, tab_id__in=wanted)}
    unknown = [tab_id for tab_id in wanted if tab_id not in found]
    if unknown:
        raise ApplicationError(
            f"Unknown tab ids for this conversation: {', '.join(unknown)}. Add a tab to the context before sharing it."
        )
    return [found[tab_id] for tab_id in wanted]


def shared_tab_contents(*, run_metadata: RunMetadata, conversation_id: int) -> list[SharedTabContent]:
    """What the model gets for a run's shared tabs: title, URL and the saved content, as saved now."""
    ids = [str(tab["id"]) for tab in run_metadata.get("shared_tabs") or []]
    found = {item.tab_id: item for item in TabContent.objects.filter(conversation_id=conversation_id, tab_id__in=ids)}
    return [
        {"id": i, "title": found[i].title, "url": found[i].url, "content": found[i].content or found[i].reason}
        for i in ids
        if i in found
    ]


def conversation_uploads(*, conversation_id: int) -> dict[str, Path]:
    """The files the agent may upload into a page, by id (as text, the way actions name them)."""
    uploaded = ConversationFile.objects.filter(conversation_id=conversation_id, origin=ConversationFile.Origin.UPLOAD)
    return {str(f.pk): Path(f.file.path) for f in uploaded}


def browser_session_tools(*, conversation: Conversation) -> PageTools:
    """The active tab's tools as the worker last reported them (browser_session_set_tools)."""
    session = BrowserSession.objects.filter(conversation=conversation).only("tools").first()
    tools: PageTools = session.tools if session and session.tools else no_page_tools()
    return tools
