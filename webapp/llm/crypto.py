"""API keys are encrypted at rest with Fernet. The key comes from HIVE_ENCRYPTION_KEY, else from SECRET_KEY."""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet() -> Fernet:
    configured = settings.HIVE_ENCRYPTION_KEY
    if configured:
        return Fernet(configured.encode())
    digest = hashlib.sha256(b"hive-api-keys:" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def encrypt(plain: str) -> str:
    return _fernet().encrypt(plain.encode()).decode() if plain else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        # The encryption key changed: the key cannot be read; the user must enter it again.
        return ""
