"""Secrets, security headers and abuse limits (docs/security.md). Production specifics are in production.py."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
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
# Sign-in throttling (django-axes): after this many failures for a username from one address, that pair waits.
AXES_FAILURE_LIMIT = env.int("HIVE_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("HIVE_LOGIN_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Not its version banner in every process's start log.
AXES_VERBOSE = False
# The sign-in API answers a lockout itself (a JSON 429 saying when to retry); axes' middleware would replace that
# answer with its own page, so it is left out on purpose.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]
# The lockout's address is the client's as the proxies below define it (webapp/core/clients.py).
AXES_CLIENT_IP_CALLABLE = "webapp.core.clients.client_address"
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

# Reverse proxies in front of Hive, for the client address that throttles and the sign-in lockout key on: none by
# default (X-Forwarded-For is ignored); else how many there are, or their addresses (IPs, prefixes or CIDR blocks,
# one per hop, the one Hive's connection comes from last).
HIVE_NUM_PROXIES = env.int("HIVE_NUM_PROXIES", default=0)
HIVE_TRUSTED_PROXIES = env.list("HIVE_TRUSTED_PROXIES", default=[])

# Personal API tokens (django-rest-knox): hashed at rest, shown once, expiring after this long (None: never).
HIVE_API_TOKEN_TTL = timedelta(days=env.int("HIVE_API_TOKEN_TTL_DAYS", default=90))
REST_KNOX = {"TOKEN_TTL": HIVE_API_TOKEN_TTL, "AUTO_REFRESH": False}

# Prometheus metrics at /metrics: on when a token is set; scrapers send Authorization: Bearer <token>.
HIVE_METRICS_TOKEN = env.str("HIVE_METRICS_TOKEN", default="")

# Who may create an account: "open", "invite" (with one of HIVE_SIGNUP_INVITES) or "closed".
HIVE_SIGNUP = env.str("HIVE_SIGNUP", default="open")
HIVE_SIGNUP_INVITES = env.list("HIVE_SIGNUP_INVITES", default=[])

# Per-user quotas (0: no limit), answered with 429 saying which limit and when it resets.
HIVE_QUOTA_RUNS_PER_HOUR = env.int("HIVE_QUOTA_RUNS_PER_HOUR", default=120)
HIVE_QUOTA_CONCURRENT_SESSIONS = env.int("HIVE_QUOTA_CONCURRENT_SESSIONS", default=3)
HIVE_QUOTA_TOKENS_PER_DAY = env.int("HIVE_QUOTA_TOKENS_PER_DAY", default=2_000_000)
# Live input events (mouse, keys, wheel) one dashboard socket may relay a second; past it moves are merged and the
# rest dropped (0 = no bound).
HIVE_LIVE_INPUT_PER_S = env.float("HIVE_LIVE_INPUT_PER_S", default=100.0)
# How old the role a socket acts on may be, and how often a socket checks that its session or token still signs its
# user in (signing out, a revoked token or a deactivated user also tell the sockets at once).
HIVE_SOCKET_RECHECK_S = env.float("HIVE_SOCKET_RECHECK_S", default=5.0)
# A page's JavaScript dialogs kept until an action reports them, and how much of each one's text (an alert loop of
# large strings must not grow the worker's memory).
HIVE_DIALOG_TEXTS_KEPT = env.int("HIVE_DIALOG_TEXTS_KEPT", default=10)
HIVE_DIALOG_TEXT_MAX_CHARS = env.int("HIVE_DIALOG_TEXT_MAX_CHARS", default=500)
# Runs waiting for a worker across the whole service; past it a new run is refused with a 429 (0 = no bound).
HIVE_QUEUE_LIMIT = env.int("HIVE_QUEUE_LIMIT", default=200)

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
