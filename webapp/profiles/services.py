"""Writes for browser profiles: import, rename, forget an origin, share; which profile a conversation's browser starts
from; and, for the worker, the writer's lease and saving a session back."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework import status

from webapp.conversations.models import Conversation
from webapp.core.crypto import encrypt_document
from webapp.core.events import command_session
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.profiles.models import BrowserProfile, ProfileShare, ProfileUse
from webapp.profiles.selectors import (
    holder_text,
    profile_chooser_may_write,
    profile_get,
    profile_holder,
    profile_state,
    writer_wait_s,
)
from webapp.profiles.state import ImportRefusedError, origins_of, read_import, state_size, without_origin
from webapp.runs.services import run_ensure_idle

log = logging.getLogger(__name__)

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def profile_name_clean(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 100 or _CONTROL.search(name):
        raise ApplicationError("A profile's name is 1 to 100 characters, without control characters.")
    return name


def _write(profile: BrowserProfile, state: JsonObject) -> None:
    size = state_size(state)
    if size > settings.HIVE_PROFILE_MAX_BYTES:
        raise ApplicationError(f"The browser state is larger than {settings.HIVE_PROFILE_MAX_BYTES // 1000} kB.")
    profile.state = encrypt_document(state)
    profile.origins = origins_of(state)
    profile.size = size
    profile.saved_at = timezone.now()


def _busy(profile: BrowserProfile, besides: int | None = None) -> None:
    holder = profile_holder(profile=profile, besides=besides)
    if holder is not None:
        raise ApplicationError(holder_text(profile.name, holder), status_code=status.HTTP_409_CONFLICT)


@transaction.atomic
def profile_store(
    *, owner: User, name: str, state: JsonObject, replace: bool, writer: int | None = None
) -> BrowserProfile:
    """Keep `state` as the owner's profile of that name: a new one, or (with `replace`) the one of that name, unless
    a session other than the conversation `writer` writes it now (409)."""
    name = profile_name_clean(name)
    existing = BrowserProfile.objects.select_for_update().filter(owner=owner, name=name).first()
    if existing is not None and not replace:
        raise ApplicationError(f"You already have a profile named “{name}”: replace it, or choose another name.")
    if existing is not None:
        _busy(existing, besides=writer)
    profile = existing or BrowserProfile(owner=owner, name=name)
    _write(profile, state)
    profile.save()
    return profile


@transaction.atomic
def profile_import(
    *, owner: User, name: str, content: str, fmt: str = "auto", replace: bool = False
) -> tuple[BrowserProfile, int]:
    """A profile from a storage-state JSON or a cookies.txt file; nothing changes when the file is refused (400).
    Returns the profile and how many expired cookies were left out."""
    try:
        state, expired = read_import(content, fmt, max_bytes=settings.HIVE_PROFILE_IMPORT_MAX_BYTES)
    except ImportRefusedError as exc:
        raise ApplicationError(str(exc)) from None
    return profile_store(owner=owner, name=name, state=state, replace=replace), expired


@transaction.atomic
def profile_rename(*, profile: BrowserProfile, name: str) -> BrowserProfile:
    name = profile_name_clean(name)
    if BrowserProfile.objects.filter(owner_id=profile.owner_id, name=name).exclude(pk=profile.pk).exists():
        raise ApplicationError(f"You already have a profile named “{name}”.")
    profile.name = name
    profile.save(update_fields=["name", "updated_at"])
    return profile


@transaction.atomic
def profile_delete(*, profile: BrowserProfile) -> None:
    """The profile and every conversation's use of it. A session writing it finds nothing to save back into."""
    using = list(profile.uses.values_list("conversation_id", flat=True))
    profile.delete()
    transaction.on_commit(lambda: _tell_sessions(using))


def _tell_sessions(conversation_ids: list[int]) -> None:
    for conversation_id in conversation_ids:
        command_session(conversation_id, {"type": "profile.changed"})


@transaction.atomic
def profile_forget_origin(*, profile: BrowserProfile, origin: str) -> BrowserProfile:
    """Drop what the profile holds for one origin (its storage, and its host's cookies); 409 while a session writes
    the profile, which would save it back."""
    profile = BrowserProfile.objects.select_for_update().get(pk=profile.pk)
    _busy(profile)
    try:
        state = without_origin(profile_state(profile_id=profile.pk), origin)
    except KeyError:
        raise ApplicationError(f"The profile holds nothing for {origin}.") from None
    _write(profile, state)
    profile.save()
    return profile


@transaction.atomic
def profile_share(*, profile: BrowserProfile, username: str, role: str) -> ProfileShare:
    """Share with a teammate by username (or change their role)."""
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ApplicationError(f"No user named {username.strip()!r}.")
    if user.pk == profile.owner_id:
        raise ApplicationError("That is the profile's owner.")
    share, _ = ProfileShare.objects.update_or_create(profile=profile, user=user, defaults={"role": role})
    _chooser_changed_on_commit(profile, user.pk)
    return share


@transaction.atomic
def profile_share_delete(*, share: ProfileShare) -> None:
    """Take a share back: a browser the teammate started from the profile is opened again without it at once."""
    profile, user_id = share.profile, share.user_id
    share.delete()
    _chooser_changed_on_commit(profile, user_id)


def _chooser_changed_on_commit(profile: BrowserProfile, user_id: int) -> None:
    """The sessions the person chose the profile for look again whether they may still start from it."""
    using = list(profile.uses.filter(chosen_by_id=user_id).values_list("conversation_id", flat=True))
    if using:
        transaction.on_commit(lambda: _tell_sessions(using))


# The open browser is reopened on another profile: never under a run that is using it.
RUN_IN_PROGRESS = "A run is in progress in this conversation: change its browser profile when the run has ended."


@transaction.atomic
def profile_use_set(*, conversation: Conversation, profile: BrowserProfile, writes: bool, user: User) -> ProfileUse:
    """The conversation's browser starts from `profile` (chosen by `user`, who may start from it): loaded into the
    browser at once if it is open, else when it next opens; read-write saves back into the profile. Choosing again
    loads the profile again."""
    profile_get(user=user, profile_id=profile.pk, need="controller")  # whoever asks, the chooser may start from it
    run_ensure_idle(conversation=conversation, refusal=RUN_IN_PROGRESS)
    if writes and writer_wait_s() <= 0:
        _busy(profile, besides=conversation.pk)
    use, _ = ProfileUse.objects.update_or_create(
        conversation=conversation,
        defaults={"profile": profile, "writes": writes, "chosen_by": user, "chosen_at": timezone.now()},
    )
    transaction.on_commit(lambda: command_session(conversation.pk, {"type": "profile.changed"}))
    return use


@transaction.atomic
def profile_use_clear(*, conversation: Conversation) -> None:
    """The conversation's browser keeps what it has, and saves into no profile from now on."""
    run_ensure_idle(conversation=conversation, refusal=RUN_IN_PROGRESS)
    if ProfileUse.objects.filter(conversation=conversation).delete()[0]:
        transaction.on_commit(lambda: command_session(conversation.pk, {"type": "profile.changed"}))


# -- the worker's side: one writer at a time ----------------------------------------------------------------------


def _lease_end() -> datetime:
    return timezone.now() + timedelta(seconds=settings.HIVE_PROFILE_LEASE_S)


def profile_lease_take(*, profile_id: int, conversation_id: int) -> bool:
    """One atomic update: the conversation's session becomes the profile's writer, unless another's lease holds."""
    free = Q(writer__isnull=True) | Q(writer_id=conversation_id) | Q(writer_until__lte=timezone.now())
    try:
        taken = BrowserProfile.objects.filter(free, pk=profile_id).update(
            writer_id=conversation_id, writer_until=_lease_end()
        )
    except IntegrityError:  # the conversation was deleted meanwhile
        return False
    return taken == 1


def profile_leases_renew(*, conversation_ids: list[int]) -> None:
    if conversation_ids:
        BrowserProfile.objects.filter(writer_id__in=conversation_ids).update(writer_until=_lease_end())


def profile_lease_release(*, profile_id: int, conversation_id: int) -> None:
    BrowserProfile.objects.filter(pk=profile_id, writer_id=conversation_id).update(writer=None, writer_until=None)


@transaction.atomic
def profile_write_back(*, profile_id: int, conversation_id: int, state: JsonObject, chooser_id: int) -> bool:
    """Save a session's storage into the profile it writes. False when it is not the writer any more (its lease
    ended and another session took it, or the profile was deleted), or when the person who chose the profile for it
    may no longer write it (its share was taken back, their account closed; the lease is let go then): nothing is
    written."""
    profile = BrowserProfile.objects.select_for_update().filter(pk=profile_id, writer_id=conversation_id).first()
    if profile is None:
        return False
    if not profile_chooser_may_write(profile_id=profile_id, chooser_id=chooser_id):
        profile_lease_release(profile_id=profile_id, conversation_id=conversation_id)
        return False
    try:
        _write(profile, state)
    except ApplicationError as exc:
        log.warning("profile %s not saved back from conversation %s: %s", profile_id, conversation_id, exc.message)
        return True
    profile.writer_until = _lease_end()
    profile.save()
    return True


def profile_loaded(*, use_id: int) -> None:
    """A session started from the profile (its last use)."""
    now = timezone.now()
    ProfileUse.objects.filter(pk=use_id).update(loaded_at=now)
    BrowserProfile.objects.filter(uses__pk=use_id).update(last_used_at=now)


def profile_capture_store(*, conversation_id: int, name: str, replace: bool, state: JsonObject) -> BrowserProfile:
    """A conversation's browser state kept as its owner's profile (what the worker saved just now)."""
    owner = Conversation.objects.select_related("owner").get(pk=conversation_id).owner
    return profile_store(owner=owner, name=name, state=state, replace=replace, writer=conversation_id)
