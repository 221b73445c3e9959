"""Reading the vault: its names for anyone who lists it (the owner only), its values for the worker only."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from webapp.core.crypto import decrypt
from webapp.vault.models import VaultCredential


def vault_list(*, owner_id: int) -> QuerySet[VaultCredential]:
    return VaultCredential.objects.filter(owner_id=owner_id)


def vault_get(*, owner_id: int, credential_id: int) -> VaultCredential:
    """One of the owner's credentials; anyone else's is not found (a vault is never shared)."""
    return get_object_or_404(VaultCredential, pk=credential_id, owner_id=owner_id)


def vault_names(*, owner_id: int) -> list[tuple[str, list[str], list[str]]]:
    """(name, fields, origins) of each of the owner's credentials: what an agent's turn may be told."""
    return [(c.name, list(c.fields), list(c.origins)) for c in vault_list(owner_id=owner_id)]


def vault_values(*, owner_id: int, name: str) -> dict[str, str]:
    """A credential's values, decrypted: for the worker, at the moment one of them is typed, and nowhere else."""
    credential = VaultCredential.objects.filter(owner_id=owner_id, name=name).first()
    if credential is None:
        return {}
    return {str(field): decrypt(str(token)) for field, token in credential.secret.items()}
