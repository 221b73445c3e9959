"""Reads for conversations: the ones a user owns and the ones shared with them.

A conversation someone may not see does not exist for them (404); one they see but may not change in the way
asked answers 403 with the reason (`need`: "viewer" for reads, "controller" for acting in it, "owner" for its
settings and shares). The access rules themselves live in `webapp.sharing.selectors`.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404

from webapp.conversations.models import Conversation, Message
from webapp.runs.models import Run
from webapp.sharing.selectors import Access, access_of, access_require, conversation_visible, conversations_visible
from webapp.usage.selectors import conversation_usage_annotations


def conversation_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Conversation]:
    """Owned and shared conversations, each annotated with `access`, `last_run_status` (its agent's latest turn or
    replay: an action by hand says nothing about how the conversation is going) and its usage so far."""
    last_status = (
        Run.objects.filter(conversation=OuterRef("pk"), kind__in=Run.WORK_KINDS)
        .order_by("-created_at", "-id")
        .values("status")[:1]
    )
    return (
        conversations_visible(user=user)
        .select_related("owner")
        .annotate(last_run_status=Subquery(last_status), **conversation_usage_annotations())
    )


def conversation_get(
    *, user: AbstractBaseUser | AnonymousUser, conversation_id: int, need: Access = "viewer"
) -> Conversation:
    # Without the list's usage and last-status subqueries: most callers (an action, a message, a share) only check
    # access, and those sums grow with the conversation. The serializer asks for them when it shows them.
    conversation = conversation_visible(user=user, conversation_id=conversation_id, related=("owner",))
    if conversation is None:
        raise Http404
    access_require(access=access_of(conversation), need=need)
    return conversation


def message_list(*, conversation: Conversation) -> QuerySet[Message]:
    return conversation.messages.select_related("author")
