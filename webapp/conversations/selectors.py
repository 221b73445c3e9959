"""Reads for conversations. A conversation someone may not see does not exist for them (404)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from webapp.conversations.models import Conversation, Message
from webapp.runs.models import Run


def conversation_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Conversation]:
    last_status = Run.objects.filter(conversation=OuterRef("pk")).order_by("-created_at", "-id").values("status")[:1]
    return Conversation.objects.filter(owner_id=user.pk).annotate(last_run_status=Subquery(last_status))


def conversation_get(*, user: AbstractBaseUser | AnonymousUser, conversation_id: int) -> Conversation:
    return get_object_or_404(conversation_list(user=user), pk=conversation_id)


def conversation_can_view(*, user: AbstractBaseUser | AnonymousUser, conversation_id: int) -> bool:
    return bool(user.is_authenticated) and Conversation.objects.filter(pk=conversation_id, owner_id=user.pk).exists()


def message_list(*, conversation: Conversation) -> QuerySet[Message]:
    return conversation.messages.all()
