"""The vault: a user's credentials (a username and password, a TOTP secret, other named secrets) that the agent types
by placeholder and never reads. Only names are ever shown: which fields a credential holds and where it may be
typed; the values are kept encrypted and opened by the worker at the moment of typing."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class VaultCredential(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vault_credentials")
    # What the agent writes in a placeholder: `{{name.field}}`.
    name = models.CharField(max_length=100)
    # The names of the fields it holds ("username", "password", "otp" for a TOTP secret, others), never a value.
    fields: models.JSONField[list[str], list[str]] = models.JSONField(default=list, blank=True)
    # The origins (scheme://host[:port]) its values may be typed into; anywhere else they are refused.
    origins: models.JSONField[list[str], list[str]] = models.JSONField(default=list, blank=True)
    # {field: its value encrypted (webapp.core.crypto.encrypt)}: each field on its own, so an edit replaces one without
    # opening the others; read on the worker only (selectors).
    secret = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_vault_credential_name")]

    def __str__(self) -> str:
        return self.name
