"""Production posture: security headers on every answer, production settings that refuse a default key and pass
Django's deployment checks, and `make run` listening on loopback without DEBUG unless told otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_answers_carry_the_security_headers() -> None:
    response = Client().get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_an_unknown_page_answers_404_without_the_url_list() -> None:
    response = Client().get("/api/no-such-endpoint/")
    assert response.status_code == 404
    assert b"URLconf" not in response.content
    assert b"api/conversations" not in response.content


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "HIVE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "webapp.settings.production", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("key", ["", "dev-only-insecure-key-change-me", "short"])
def test_production_refuses_a_missing_or_default_secret_key(key: str) -> None:
    done = _manage("check", DJANGO_SECRET_KEY=key, HIVE_ENCRYPTION_KEYS=Fernet.generate_key().decode())
    assert done.returncode != 0
    assert "Set DJANGO_SECRET_KEY" in done.stderr


def test_production_passes_djangos_deployment_checks() -> None:
    done = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=os.urandom(32).hex(),
        HIVE_ENCRYPTION_KEYS=Fernet.generate_key().decode(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_make_run_listens_on_loopback_without_debug_unless_told() -> None:
    assert "HIVE_BIND ?= 127.0.0.1" in (ROOT / "Makefile").read_text()
    assert "daphne -b %(ENV_HIVE_BIND)s" in (ROOT / "supervisord.conf").read_text()
    done = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "webapp.settings.local"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "False", done.stderr
