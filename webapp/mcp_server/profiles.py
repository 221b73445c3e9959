"""Browser profiles for MCP clients: a client names the profile its conversation's browser starts from, with the
`Hive-Profile` header (and `Hive-Profile-Mode`) on every request or a `profile` argument of `run_task` and
`run_workflow`; `list_profiles` says which it may name. The REST API's rules apply: only the conversation's owner
chooses its profile, from those they may start from."""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404

from webapp.conversations.models import Conversation
from webapp.core.exceptions import ApplicationError
from webapp.profiles.models import BrowserProfile
from webapp.profiles.selectors import access_of, profile_list, profile_use_get
from webapp.profiles.services import profile_use_set
from webapp.sharing.selectors import RANK

PROFILE_HEADER = "hive-profile"
MODE_HEADER = "hive-profile-mode"
MODES = ("read-write", "read-only")


class ProfileRefusalError(Exception):
    """A profile the client named cannot be used, with the reason its model should read."""


def _named(user: User, ref: str) -> BrowserProfile:
    """A profile the user may start from, by its id or its name (theirs first, then one shared with them)."""
    usable = [p for p in profile_list(user=user) if RANK[access_of(p)] >= RANK["controller"]]
    by_id = [p for p in usable if ref.isdigit() and p.pk == int(ref)]
    by_name = sorted((p for p in usable if p.name == ref), key=lambda p: access_of(p) != "owner")
    found = by_id or by_name
    if not found:
        raise ProfileRefusalError(f"You have no browser profile {ref!r} to start from; list_profiles shows yours.")
    return found[0]


@transaction.atomic
def profile_apply(*, user: User, conversation: Conversation, ref: str, mode: str | None) -> None:
    """The conversation's browser starts from the profile named `ref` (read-write unless `mode` says read-only).
    Naming the profile it already uses, in the same mode, changes nothing (the browser is not reloaded)."""
    mode = (mode or "read-write").strip().lower()
    if mode not in MODES:
        raise ProfileRefusalError("profile_mode is read-write or read-only.")
    profile = _named(user, ref.strip())
    if conversation.owner_id != user.pk:
        raise ProfileRefusalError("Only the conversation's owner chooses the browser profile it starts from.")
    current = profile_use_get(conversation_id=conversation.pk)
    writes = mode == "read-write"
    if current is not None and current.profile_id == profile.pk and current.writes == writes:
        return
    try:
        profile_use_set(conversation=conversation, profile=profile, writes=writes, user=user)
    except (ApplicationError, Http404) as exc:
        raise ProfileRefusalError(exc.message if isinstance(exc, ApplicationError) else "No such profile.") from exc


def profiles_listed(*, user: User) -> str:
    listed = [
        {
            "id": p.pk,
            "name": p.name,
            "owner": p.owner.username,
            "origins": [o["origin"] for o in p.origins],
            "last_used_at": p.last_used_at.isoformat() if p.last_used_at else None,
        }
        for p in profile_list(user=user)
        if RANK[access_of(p)] >= RANK["controller"]
    ]
    return json.dumps(listed, ensure_ascii=False)
