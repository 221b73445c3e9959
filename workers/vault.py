"""The vault of the person who started a run, as that run's `Secrets`: names and origins read when the turn starts,
each credential's values decrypted here, on the worker, the first time one of them is typed."""

from __future__ import annotations

from collections.abc import Mapping

from channels.db import database_sync_to_async

from agents.vault import VaultEntry, VaultSecrets
from webapp.runs.selectors import run_starter
from webapp.vault.selectors import vault_names, vault_values


def _entries(run_id: int) -> tuple[int, list[VaultEntry]]:
    # Whoever started the run brings their own vault, never the conversation owner's (as with workflow secrets).
    starter = run_starter(run_id=run_id)
    if starter is None:
        return 0, []
    names = vault_names(owner_id=starter.pk)
    return starter.pk, [VaultEntry(name, tuple(fields), tuple(origins)) for name, fields, origins in names]


async def vault_secrets(run_id: int, *, others: Mapping[str, str] | None = None) -> VaultSecrets | None:
    """The run's vault (with any other named values it fills in), or None when there is nothing to fill."""
    owner_id, entries = await database_sync_to_async(_entries)(run_id)
    if not entries and not others:
        return None

    async def open_values(name: str) -> Mapping[str, str]:
        values: dict[str, str] = await database_sync_to_async(vault_values)(owner_id=owner_id, name=name)
        return values

    return VaultSecrets(entries, open_values, others=others)
