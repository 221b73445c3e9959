from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Share(models.Model):
    """A teammate's access to a conversation, or an expiring link that grants it to whoever opens it.

    A user share names the teammate (`user`); a link share has a `token` instead and an `expires_at`. A
    signed-in teammate who accepts a link gets a user share of their own with the link's role and expiry
    (`via_link`), so revoking or re-roling the link reaches everyone who joined through it. Revoking keeps the
    row (`revoked_at`) for the record.
    """

    class Role(models.TextChoices):
        VIEWER = "viewer", "Viewer: watches the live view, the chat and the steps"
        CONTROLLER = "controller", "Controller: can also send messages, answer confirmations and take over"

    conversation = models.ForeignKey("conversations.Conversation", on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="shares_received"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    via_link = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="accepted_shares"
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shares_created")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["user", "conversation"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, token__isnull=True) | Q(user__isnull=True, token__isnull=False),
                name="share_is_for_a_user_or_a_link",
            ),
            models.CheckConstraint(
                condition=Q(token__isnull=True) | Q(expires_at__isnull=False), name="share_link_expires"
            ),
        ]

    def __str__(self) -> str:
        whom = f"link {self.token[:6]}…" if self.token else str(self.user)
        return f"{whom} {self.role} of conversation {self.conversation_id}"

    @property
    def is_link(self) -> bool:
        return self.token is not None
