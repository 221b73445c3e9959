"""Re-encrypt every secret at rest under the newest key of HIVE_ENCRYPTION_KEYS.

Rotate: put a new key first in HIVE_ENCRYPTION_KEYS (keep the old ones after it), restart, run this command, then
drop the old keys. Rows the old keys cannot open are reported, not lost silently.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from webapp.conversations.models import BrowserSession
from webapp.core.crypto import ENCRYPTED, decrypt, encrypt_document, rotate
from webapp.llm.models import ModelProfile
from webapp.profiles.models import BrowserProfile
from webapp.vault.models import VaultCredential


class Command(BaseCommand):
    help = (
        "Re-encrypt model API keys, saved browser state, browser profiles and vault credentials under the newest "
        "HIVE_ENCRYPTION_KEYS key."
    )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        keys = unreadable = 0
        for profile in ModelProfile.objects.exclude(api_key_encrypted="").select_for_update():
            if not decrypt(profile.api_key_encrypted):
                unreadable += 1
                continue
            profile.api_key_encrypted = rotate(profile.api_key_encrypted)
            profile.save(update_fields=["api_key_encrypted"])
            keys += 1
        states = 0
        documents: list[BrowserSession | BrowserProfile] = [
            *BrowserSession.objects.exclude(state={}).select_for_update(),
            *BrowserProfile.objects.exclude(state={}).select_for_update(),
        ]
        for row in documents:
            stored = row.state
            if ENCRYPTED in stored:
                if not decrypt(str(stored[ENCRYPTED])):
                    unreadable += 1
                    continue
                row.state = {ENCRYPTED: rotate(str(stored[ENCRYPTED]))}
            else:
                row.state = encrypt_document(stored)  # saved before encryption at rest
            row.save(update_fields=["state"])
            states += 1
        credentials = 0
        for credential in VaultCredential.objects.exclude(secret={}).select_for_update():
            tokens = {field: str(token) for field, token in credential.secret.items()}
            if not all(decrypt(token) for token in tokens.values()):
                unreadable += 1
                continue
            credential.secret = {field: rotate(token) for field, token in tokens.items()}
            credential.save(update_fields=["secret"])
            credentials += 1
        self.stdout.write(
            f"re-encrypted {keys} API keys, {states} saved browser states and profiles and {credentials} vault "
            "credentials"
        )
        if unreadable:
            self.stderr.write(f"{unreadable} secrets could not be opened with any configured key (left as they are)")
