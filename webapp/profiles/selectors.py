"""Reads for browser profiles: who may see which, and what a session starting from one needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Case, OuterRef, Q, QuerySet, Subquery, Value, When
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import status

from webapp.core.crypto import decrypt_document
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.profiles.models import BrowserProfile, ProfileShare, ProfileUse
from webapp.runs.selectors import run_starter
from webapp.sharing.selectors import RANK, Access, conversation_access

_TOO_LITTLE = {
    "controller": "You can see this profile but not start from it: ask its owner to make you a controller.",
    "owner": "Only the profile's owner can do that.",
}


def profile_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[BrowserProfile]:
    """Owned and shared profiles, each annotated with the caller's `access`."""
    if not user.is_authenticated:
        return BrowserProfile.objects.none()
    shared_role = ProfileShare.objects.filter(profile=OuterRef("pk"), user_id=user.pk).values("role")[:1]
    return (
        BrowserProfile.objects.filter(Q(owner_id=user.pk) | Q(shares__user_id=user.pk))
        .distinct()
        .annotate(access=Case(When(owner_id=user.pk, then=Value("owner")), default=Subquery(shared_role)))
        .select_related("owner")
        .defer("state")
    )


def profile_get(*, user: AbstractBaseUser | AnonymousUser, profile_id: int, need: Access = "viewer") -> BrowserProfile:
    """404 without access; 403 with the reason when the access is below what is needed."""
    profile = get_object_or_404(profile_list(user=user), pk=profile_id)
    if RANK[access_of(profile)] < RANK[need]:
        raise ApplicationError(_TOO_LITTLE[need], status_code=status.HTTP_403_FORBIDDEN)
    return profile


def access_of(profile: BrowserProfile) -> Access:
    """The reader's access to a profile loaded through `profile_list`."""
    return profile.access  # type: ignore[attr-defined,no-any-return]


def profile_access(*, user: AbstractBaseUser | AnonymousUser, profile_id: int) -> Access | None:
    profile = profile_list(user=user).filter(pk=profile_id).first()
    return access_of(profile) if profile is not None else None


def profile_state(*, profile_id: int) -> JsonObject:
    """The profile's storage state, decrypted: for the browser, and for its owner's export only."""
    stored = BrowserProfile.objects.filter(pk=profile_id).values_list("state", flat=True).first()
    return decrypt_document(stored) or {"cookies": [], "origins": []}


class Holder(TypedDict):
    """The session writing a profile now: who chose the profile for it, and its conversation."""

    username: str
    conversation: int


def profile_holder(*, profile: BrowserProfile, besides: int | None = None) -> Holder | None:
    """Who writes the profile now (a lease not expired), unless it is the conversation `besides`."""
    if profile.writer_id is None or profile.writer_id == besides:
        return None
    if profile.writer_until is None or profile.writer_until <= timezone.now():
        return None
    found = ProfileUse.objects.select_related("chosen_by").filter(conversation_id=profile.writer_id).first()
    username = found.chosen_by.username if found is not None else "someone"
    return {"username": username, "conversation": profile.writer_id}


def holder_text(profile_name: str, holder: Holder) -> str:
    return (
        f"The profile “{profile_name}” is in use by {holder['username']} in conversation {holder['conversation']}, "
        "which saves into it until its browser closes. Start from it read-only, or try again later."
    )


def writer_wait_s() -> float:
    return float(settings.HIVE_PROFILE_WRITER_WAIT_S)


def profile_use_get(*, conversation_id: int) -> ProfileUse | None:
    return (
        ProfileUse.objects.select_related("profile", "chosen_by", "conversation")
        .filter(conversation_id=conversation_id)
        .first()
    )


def profile_writer_check(*, conversation_id: int) -> None:
    """The one check before work starts in a conversation whose browser saves into a profile: while another session
    writes that profile, 409 saying who (unless HIVE_PROFILE_WRITER_WAIT_S lets the work wait for it on the worker)."""
    if writer_wait_s() > 0:
        return
    use = ProfileUse.objects.select_related("profile").filter(conversation_id=conversation_id, writes=True).first()
    if use is None:
        return
    holder = profile_holder(profile=use.profile, besides=conversation_id)
    if holder is not None:
        raise ApplicationError(holder_text(use.profile.name, holder), status_code=status.HTTP_409_CONFLICT)


@dataclass(frozen=True, slots=True)
class SessionProfile:
    """What a worker needs to start a conversation's browser from its profile."""

    use_id: int
    profile_id: int
    profile_name: str
    writes: bool
    chosen_at: float  # a timestamp: a session that loaded an older choice loads the profile again
    loaded: bool  # a session has started from this choice already
    chooser_id: int
    # Someone else's profile, shared with the conversation's owner: its cookies and storage are lent to the browser
    # for as long as it is used, never kept in the conversation's own save nor saved as another profile.
    lent: bool


def session_profile(*, conversation_id: int) -> SessionProfile | None:
    """The profile the conversation's browser starts from, while the person who chose it may still: their account is
    active, they may act in the conversation and start from the profile. None otherwise (the browser then starts
    from the conversation's own save, and saves into no profile)."""
    use = profile_use_get(conversation_id=conversation_id)
    if use is None or not use.chosen_by.is_active:
        return None
    on_conversation = conversation_access(user=use.chosen_by, conversation_id=conversation_id)
    on_profile = profile_access(user=use.chosen_by, profile_id=use.profile_id)
    if (
        on_conversation is None
        or on_profile is None
        or min(RANK[on_conversation], RANK[on_profile]) < RANK["controller"]
    ):
        return None
    loaded = use.loaded_at is not None and use.loaded_at >= use.chosen_at
    return SessionProfile(use_id=use.pk, profile_id=use.profile_id, profile_name=use.profile.name, writes=use.writes,
                          chosen_at=use.chosen_at.timestamp(), loaded=loaded, chooser_id=use.chosen_by_id,
                          lent=use.profile.owner_id != use.conversation.owner_id)  # fmt: skip


def profile_chooser_may_write(*, profile_id: int, chooser_id: int) -> bool:
    """Whether the person who chose the profile for a session may still have it saved into: their account is active
    and they own it or have it shared as controller."""
    chooser = User.objects.filter(pk=chooser_id, is_active=True).first()
    access = profile_access(user=chooser, profile_id=profile_id) if chooser is not None else None
    return access is not None and RANK[access] >= RANK["controller"]


def profile_run_may_use(*, run_id: int, profile_id: int) -> bool:
    """Whether a run may draw on the profile its conversation starts from: like every store a run draws on, it is its
    starter's (`run_starter`), so the starter must own the profile or have it shared as controller. Never the
    conversation owner's profile for a run someone else started."""
    starter = run_starter(run_id=run_id)
    access = profile_access(user=starter, profile_id=profile_id) if starter is not None else None
    return access is not None and RANK[access] >= RANK["controller"]
