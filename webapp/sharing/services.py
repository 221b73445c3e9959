"""Writes for shares. Every change that can narrow or widen a teammate's access reaches their open websockets
right after the commit: a revoked teammate is disconnected at once (4403), a re-roled one told its new role,
and one who is no longer a controller loses the browser's controls; their own socket (/ws/me/) is told the
conversation is shared with them, or no longer, so their conversation list follows."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from rest_framework import status

from webapp.conversations import live
from webapp.conversations.models import Conversation
from webapp.conversations.selectors import conversation_get
from webapp.conversations.serializers import ConversationOutput
from webapp.core.events import publish_to_user
from webapp.core.exceptions import ApplicationError
from webapp.sharing.control import control_release_if_held
from webapp.sharing.models import Share
from webapp.sharing.selectors import RANK, conversation_access, share_link_get

LINK_MAX_MINUTES = 30 * 24 * 60


def _access_refresh_on_commit(conversation_id: int, user_ids: Iterable[int]) -> None:
    user_ids = sorted(set(user_ids))

    def refresh() -> None:
        for teammate in get_user_model().objects.filter(pk__in=user_ids):
            access = conversation_access(user=teammate, conversation_id=conversation_id)
            shown = None
            if access is not None:
                try:
                    shown = conversation_get(user=teammate, conversation_id=conversation_id)
                except Http404:  # taken back since, by a change committed just after this one
                    access = None
            if access is None or RANK[access] < RANK["controller"]:
                control_release_if_held(conversation_id=conversation_id, user_id=teammate.pk)
            live.access_changed_notify(conversation_id=conversation_id, user_id=teammate.pk, role=access)
            if shown is None:
                publish_to_user(teammate.pk, {"type": "conversation.unshared", "conversation": conversation_id})
            else:
                publish_to_user(
                    teammate.pk, {"type": "conversation.shared", "conversation": ConversationOutput(shown).data}
                )

    transaction.on_commit(refresh)


@transaction.atomic
def share_create(*, conversation: Conversation, username: str, role: str, created_by: User) -> tuple[Share, bool]:
    """Share with a teammate by username. Sharing again with the same teammate changes the role instead;
    the second value says whether a share was created."""
    teammate = get_user_model().objects.filter(username=username.strip()).first()
    if teammate is None:
        raise ApplicationError(f"There is no user named {username.strip()!r}. They need an account on Hive first.")
    if teammate.pk == conversation.owner_id:
        raise ApplicationError("You own this conversation; share it with someone else.")
    existing = (
        conversation.shares.select_for_update()
        .filter(user=teammate, via_link__isnull=True, expires_at__isnull=True, revoked_at__isnull=True)
        .first()
    )
    if existing is not None:
        return share_update(share=existing, role=role), False
    share = Share.objects.create(conversation=conversation, user=teammate, role=role, created_by=created_by)
    _access_refresh_on_commit(conversation.pk, [teammate.pk])
    return share, True


@transaction.atomic
def share_link_create(*, conversation: Conversation, role: str, expires_in_minutes: int, created_by: User) -> Share:
    if not 1 <= expires_in_minutes <= LINK_MAX_MINUTES:
        raise ApplicationError(f"A link lasts between 1 minute and {LINK_MAX_MINUTES // (24 * 60)} days.")
    return Share.objects.create(
        conversation=conversation,
        role=role,
        token=secrets.token_urlsafe(24),
        expires_at=timezone.now() + timedelta(minutes=expires_in_minutes),
        created_by=created_by,
    )


@transaction.atomic
def share_link_accept(*, token: str, user: User) -> Conversation:
    """A signed-in teammate opens a link: they get a share of their own with the link's role and expiry
    (revoking or re-roling the link reaches it too). The owner opening their own link changes nothing; a
    teammate the owner removed cannot come back through the same link."""
    link = share_link_get(token=token, lock=True)
    conversation = link.conversation
    if user.pk == conversation.owner_id:
        return conversation
    through_link = Share.objects.filter(via_link=link, user_id=user.pk)
    if through_link.filter(revoked_at__isnull=False).exists():
        raise ApplicationError(
            "The owner removed your access from this link; ask them to share the conversation again.",
            status_code=status.HTTP_403_FORBIDDEN,
        )
    if not through_link.exists():
        Share.objects.create(
            conversation=conversation,
            user=user,
            role=link.role,
            via_link=link,
            expires_at=link.expires_at,
            created_by=link.created_by,
        )
        _access_refresh_on_commit(conversation.pk, [user.pk])
    return conversation


@transaction.atomic
def share_update(*, share: Share, role: str) -> Share:
    """Change a share's role; a link's role also changes for everyone who joined through it."""
    share = Share.objects.select_for_update().get(pk=share.pk)
    share.role = role
    share.save(update_fields=["role"])
    joined = share.accepted_shares.filter(revoked_at__isnull=True)
    affected = [*([share.user_id] if share.user_id else []), *joined.values_list("user_id", flat=True)]
    joined.update(role=role)
    _access_refresh_on_commit(share.conversation_id, affected)
    return share


@transaction.atomic
def share_revoke(*, share: Share) -> None:
    """Revoke a share; revoking a link also revokes the access of everyone who joined through it."""
    now = timezone.now()
    share = Share.objects.select_for_update().get(pk=share.pk)
    if share.revoked_at is not None:
        return
    share.revoked_at = now
    share.save(update_fields=["revoked_at"])
    joined = share.accepted_shares.filter(revoked_at__isnull=True)
    affected = [*([share.user_id] if share.user_id else []), *joined.values_list("user_id", flat=True)]
    joined.update(revoked_at=now)
    _access_refresh_on_commit(share.conversation_id, affected)
