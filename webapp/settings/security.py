"""Secrets, security headers and abuse limits (docs/security.md). Production specifics are in production.py."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import environ
from cryptography.fernet import Fernet

env = environ.Env()


def kept_secret(path: Path, make: str) -> str:
    """A secret generated on first start and kept in a file only its owner may read ("key" or "fernet")."""
    if not path.exists():
        value = Fernet.generate_key().decode() if make == "fernet" else secrets.token_urlsafe(50)
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(value + "\n")
        try:
            os.link(draft, path)  # atomic: of processes starting together, one writes the key and all read it
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text(encoding="utf-8").strip()


# Content Security Policy (django-csp): the dashboard loads only its own scripts; pictures may be inline (live
# frames, icons); websockets go to the same origin. The demo sites and the API docs pages keep their own rules.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/demo/", "/admin/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
