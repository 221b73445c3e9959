"""Browser profiles: a user's named browser state (cookies, local storage, IndexedDB), kept encrypted, that a
conversation's browser starts from and, unless started read-only, saves back to, one writer at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

from webapp.sharing.models import Share

if TYPE_CHECKING:
    from webapp.profiles.state import OriginSummary


class BrowserProfile(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="browser_profiles")
    name = models.CharField(max_length=100)
    # Playwright's storage state, encrypted (webapp.core.crypto.encrypt_document); read through selectors only.
    state = models.JSONField(default=dict, blank=True)
    # What the state holds per origin, counted, never a value: listed to whoever may see the profile.
    origins: models.JSONField[list[OriginSummary], list[OriginSummary]] = models.JSONField(default=list, blank=True)
    size = models.PositiveIntegerField(default=0)  # bytes of the state as JSON
    # The one session saving into it now (its conversation) and until when, unless its worker renews the lease.
    writer = models.ForeignKey(
        "conversations.Conversation", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    writer_until = models.DateTimeField(null=True, blank=True)
    saved_at = models.DateTimeField(null=True, blank=True)  # the state was last written
    last_used_at = models.DateTimeField(null=True, blank=True)  # a session last started from it
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_browser_profile_name")]

    def __str__(self) -> str:
        return self.name


class ProfileShare(models.Model):
    """A teammate's access to a profile, with the conversation roles: a viewer sees its name and origins, a
    controller also starts sessions from it. Only the owner reads its cookies (export) or changes it."""

    Role = Share.Role

    profile = models.ForeignKey(BrowserProfile, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile_shares")
    role = models.CharField(max_length=10, choices=Share.Role.choices, default=Share.Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["profile", "user"], name="unique_profile_share")]

    def __str__(self) -> str:
        return f"{self.profile} → {self.user} ({self.role})"


class ProfileUse(models.Model):
    """A conversation whose browser starts from a profile: read-write (what changes is saved back when a run or the
    session ends) or read-only. Each choice loads the profile into the browser again (`chosen_at`)."""

    conversation = models.OneToOneField(
        "conversations.Conversation", on_delete=models.CASCADE, related_name="profile_use"
    )
    profile = models.ForeignKey(BrowserProfile, on_delete=models.CASCADE, related_name="uses")
    # Whose access to the profile lets the conversation use it (checked again each time a session starts from it).
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    writes = models.BooleanField(default=True)
    chosen_at = models.DateTimeField()
    loaded_at = models.DateTimeField(null=True, blank=True)  # a session last started from the profile

    def __str__(self) -> str:
        mode = "read-write" if self.writes else "read-only"
        return f"conversation {self.conversation_id} from {self.profile} ({mode})"
