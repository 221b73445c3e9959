"""Secrets at rest (model API keys, saved browser cookies and storage) are encrypted with Fernet keys of their own,
never derived from SECRET_KEY. `HIVE_ENCRYPTION_KEYS` lists them, newest first: the first encrypts, all decrypt,
so a key is rotated by putting a new one in front and running `manage.py rotate_encryption_keys`."""

from __future__ import annotations

import base64
import hashlib
import json

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings

from webapp.core.types import JsonObject

ENCRYPTED = "encrypted"  # the key of a JSON value that holds an encrypted document


def _legacy_key() -> Fernet:
    """Rows written before dedicated keys existed were encrypted with a key derived from SECRET_KEY; they stay
    readable until `rotate_encryption_keys` re-encrypts them."""
    digest = hashlib.sha256(b"hive-api-keys:" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _keys() -> MultiFernet:
    keys = [Fernet(key.encode()) for key in settings.HIVE_ENCRYPTION_KEYS if key]
    if not keys:
        raise RuntimeError("HIVE_ENCRYPTION_KEYS is empty: set at least one Fernet key")
    return MultiFernet([*keys, _legacy_key()])


def encrypt(plain: str) -> str:
    return _keys().encrypt(plain.encode()).decode() if plain else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _keys().decrypt(token.encode()).decode()
    except InvalidToken:
        # None of the keys opens it (a key was removed too early): the user must enter the secret again.
        return ""


def rotate(token: str) -> str:
    """The same secret under the newest key ("" stays "")."""
    return _keys().rotate(token.encode()).decode() if token else ""


def encrypt_document(document: JsonObject) -> JsonObject:
    return {ENCRYPTED: encrypt(json.dumps(document))} if document else {}


def decrypt_document(stored: JsonObject | None) -> JsonObject:
    if not stored:
        return {}
    if ENCRYPTED not in stored:
        return stored  # saved before encryption; rewritten encrypted by the data migration or the next save
    plain = decrypt(str(stored[ENCRYPTED]))
    return json.loads(plain) if plain else {}


def new_key() -> str:
    return Fernet.generate_key().decode()
