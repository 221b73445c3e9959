"""Secrets at rest: model API keys and saved browser state are encrypted with dedicated keys (not SECRET_KEY), keys
rotate without losing data, and nothing secret reaches the API, the debug log or the logs."""

from __future__ import annotations

import json
import logging

import pytest
from cryptography.fernet import Fernet
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from webapp.conversations.browser_selectors import browser_session_state
from webapp.conversations.browser_services import browser_session_save
from webapp.conversations.models import BrowserSession, Conversation
from webapp.core.crypto import decrypt
from webapp.llm.models import ModelProfile

pytestmark = pytest.mark.django_db

COOKIE = {"cookies": [{"name": "session", "value": "s3cr3t-cookie", "domain": "shop.example", "path": "/"}]}


def test_saved_browser_state_is_encrypted_and_comes_back(conversation: Conversation) -> None:
    browser_session_save(conversation_id=conversation.pk, state=COOKIE)
    stored = BrowserSession.objects.get(conversation=conversation).state
    assert "s3cr3t-cookie" not in json.dumps(stored)
    assert browser_session_state(conversation_id=conversation.pk) == COOKIE


def test_keys_rotate_without_losing_secrets(
    api: APIClient, user: User, conversation: Conversation, settings: object
) -> None:
    made = api.post(
        "/api/model-profiles/",
        {"name": "m", "base_url": "https://api.example.com/v1", "model": "x", "api_key": "sk-very-secret"},
        format="json",
    )
    assert made.status_code == 201
    assert "sk-very-secret" not in made.content.decode()
    browser_session_save(conversation_id=conversation.pk, state=COOKIE)
    old = list(settings.HIVE_ENCRYPTION_KEYS)  # type: ignore[attr-defined]
    new = Fernet.generate_key().decode()
    settings.HIVE_ENCRYPTION_KEYS = [new, *old]  # type: ignore[attr-defined]
    call_command("rotate_encryption_keys")
    settings.HIVE_ENCRYPTION_KEYS = [new]  # type: ignore[attr-defined]  # the old key is gone now
    profile = ModelProfile.objects.get(owner=user)
    assert decrypt(profile.api_key_encrypted) == "sk-very-secret"
    assert browser_session_state(conversation_id=conversation.pk) == COOKIE


def test_no_secret_in_the_api_or_the_logs(api: APIClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    made = api.post(
        "/api/model-profiles/",
        {"name": "m", "base_url": "https://api.example.com/v1", "model": "x", "api_key": "sk-do-not-log"},
        format="json",
    ).json()
    listed = api.get("/api/model-profiles/").content.decode()
    one = api.get(f"/api/model-profiles/{made['id']}/").content.decode()
    assert "sk-do-not-log" not in listed + one
    assert "sk-do-not-log" not in caplog.text


def test_api_tokens_are_hashed_shown_once_expiring_bearer_too_and_not_in_admin(
    api: APIClient, user: User, settings: object
) -> None:
    from datetime import timedelta

    from django.utils import timezone
    from knox.models import AuthToken

    from webapp.accounts.tokens import user_for_token

    made = api.post("/api/auth/token/").json()
    key = made["token"]
    assert made["expires_at"]
    stored = AuthToken.objects.get(user=user)
    assert key not in (stored.digest, stored.token_key), "only a hash and a short prefix are kept"
    assert user_for_token(key) == user
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert script.get("/api/conversations/").status_code == 200
    AuthToken.objects.filter(user=user).update(expiry=timezone.now() - timedelta(seconds=1))
    assert user_for_token(key) is None
    assert script.get("/api/conversations/").status_code in (401, 403)
    user.is_staff = user.is_superuser = True
    user.save()
    assert api.get("/admin/knox/authtoken/").status_code == 404
