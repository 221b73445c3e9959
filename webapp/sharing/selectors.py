"""Who may do what with a conversation: the one place that decides it.

A conversation's access for a user is "owner", "controller", "viewer" or None. Its owner owns it; a teammate
holds the strongest role among their valid shares (not revoked, not expired). Without access a conversation
does not exist for you (404); with too little access for a write you are told so (403).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, CharField, Exists, OuterRef, Q, QuerySet, Value, When
from django.http import Http404
from django.utils import timezone
from rest_framework import status

from webapp.conversations.models import Conversation
from webapp.core.exceptions import ApplicationError
from webapp.sharing.models import Share

Access = Literal["owner", "controller", "viewer"]
RANK: dict[str, int] = {"viewer": 1, "controller": 2, "owner": 3}

_TOO_LITTLE = {
    "controller": "You can watch this conversation but not act in it: ask its owner to make you a controller.",
    "owner": "Only the conversation's owner can do that.",
}


def shares_valid() -> QuerySet[Share]:
    """Shares that grant access right now: not revoked and not expired."""
    return Share.objects.filter(revoked_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )


def conversations_visible(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Conversation]:
    """The conversations a user owns or has a valid share of, each annotated with its `access`."""
    if not user.is_authenticated:
        return Conversation.objects.none()
    user_id = int(user.pk)
    granted = shares_valid().filter(conversation=OuterRef("pk"), user_id=user_id)
    return Conversation.objects.filter(Q(owner_id=user_id) | Exists(granted)).annotate(
        access=Case(
            When(owner_id=user_id, then=Value("owner")),
            When(Exists(granted.filter(role=Share.Role.CONTROLLER)), then=Value("controller")),
            default=Value("viewer"),
            output_field=CharField(),
        )
    )


def conversation_visible(
    *, user: AbstractBaseUser | AnonymousUser, conversation_id: int, related: tuple[str, ...] = ()
) -> Conversation | None:
    """The conversation annotated with the user's `access`, or None when they may not see it. Its owner's read is a
    lookup by key and owner, the cheapest query to build and the one nearly every request makes; anyone else's
    goes through their shares."""
    if not user.is_authenticated:
        return None
    owned = Conversation.objects.select_related(*related).filter(pk=conversation_id, owner_id=user.pk).first()
    if owned is not None:
        owned.access = "owner"  # type: ignore[attr-defined]  # as conversations_visible annotates it
        return owned
    return conversations_visible(user=user).select_related(*related).filter(pk=conversation_id).first()


def conversation_access(*, user: AbstractBaseUser | AnonymousUser, conversation_id: int) -> Access | None:
    conversation = conversation_visible(user=user, conversation_id=conversation_id)
    return access_of(conversation) if conversation is not None else None


def access_of(conversation: Conversation) -> Access:
    """The reader's access to a conversation loaded through `conversations_visible`."""
    return conversation.access  # type: ignore[attr-defined,no-any-return]


def access_require(*, access: str | None, need: Access) -> None:
    """404 without access, 403 with a reason when the access is below what the request needs."""
    if access is None:
        raise Http404
    if RANK[access] < RANK[need]:
        raise ApplicationError(_TOO_LITTLE[need], status_code=status.HTTP_403_FORBIDDEN)


def access_changes_at(*, user_id: int, conversation_id: int) -> datetime | None:
    """When a teammate's access may next change by itself: the soonest expiry among their valid shares."""
    return (
        shares_valid()
        .filter(conversation_id=conversation_id, user_id=user_id, expires_at__isnull=False)
        .order_by("expires_at")
        .values_list("expires_at", flat=True)
        .first()
    )


def share_list(*, conversation: Conversation) -> QuerySet[Share]:
    """The conversation's shares and links that were not revoked (expired ones included, marked as such)."""
    return conversation.shares.filter(revoked_at__isnull=True).select_related("user", "created_by")


def share_get(*, conversation: Conversation, share_id: int) -> Share:
    share = share_list(conversation=conversation).filter(pk=share_id).first()
    if share is None:
        raise Http404
    return share


def share_link_get(*, token: str, lock: bool = False) -> Share:
    """A link by its token: 404 when unknown, 410 with a reason once it was revoked or expired. `lock`: its row is
    locked until the transaction ends (a revoke or a new role then waits for it, and reaches what it made)."""
    links = Share.objects.select_related("conversation__owner")
    if lock:
        links = links.select_for_update(of=("self",))
    link = links.filter(token=token).first()
    if link is None:
        raise Http404
    if link.revoked_at is not None:
        raise ApplicationError("This share link was revoked by its owner.", status_code=status.HTTP_410_GONE)
    if link.expires_at is not None and link.expires_at <= timezone.now():
        raise ApplicationError(
            "This share link expired. Ask the owner for a new one.", status_code=status.HTTP_410_GONE
        )
    return link
