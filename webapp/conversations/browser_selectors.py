"""Reads for a conversation's browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webapp.conversations.models import BrowserSession, Conversation, ConversationFile


def browser_session_state(*, conversation_id: int) -> dict[str, Any] | None:
    session = BrowserSession.objects.filter(conversation_id=conversation_id).only("state").first()
    return session.state if session and session.state else None


def browser_session_tabs(*, conversation: Conversation) -> list[dict[str, Any]]:
    session = BrowserSession.objects.filter(conversation=conversation).only("tabs").first()
    return list(session.tabs) if session else []


def conversation_uploads(*, conversation_id: int) -> dict[str, Path]:
    """The files the agent may upload into a page, by id (as text, the way actions name them)."""
    return {str(f.pk): Path(f.file.path) for f in ConversationFile.objects.filter(conversation_id=conversation_id)}
