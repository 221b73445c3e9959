"""The vault over REST: a credential is saved once and then only ever read by name, fields and origins (its owner's
only; a teammate or a stranger gets nothing); an edit replaces values without showing them; bad input answers 400
with a message and changes nothing; values are encrypted at rest and rotate with the keys; the admin shows names and
owners only."""

from __future__ import annotations

import json
from typing import Any

import pyotp
import pytest
from cryptography.fernet import Fernet
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from webapp.sharing.models import Share
from webapp.vault.models import VaultCredential
from webapp.vault.selectors import vault_values

pytestmark = pytest.mark.django_db

PASSWORD = "vault-pw-5d1c-plaintext"
USERNAME = "octo-user-4471"
TOTP = pyotp.random_base32()
TOKEN = "ghp-token-9a8b7c-plaintext"
VALUES = (PASSWORD, USERNAME, TOTP, TOKEN)


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _create(client: APIClient, **changes: Any) -> Any:
    body = {
        "name": "github",
        "origins": ["https://github.com"],
        "username": USERNAME,
        "password": PASSWORD,
        "totp_secret": TOTP,
        "secrets": {"api_token": TOKEN},
        **changes,
    }
    return client.post("/api/vault/", body, format="json")


def _no_value_in(text: str) -> None:
    for value in VALUES:
        assert value not in text


def test_a_credential_is_listed_by_name_fields_and_origins_and_never_by_value(user: User, api: APIClient) -> None:
    made = _create(api, origins=["https://GitHub.com:443/", "github.com"])
    assert made.status_code == 201, made.content
    shown = made.json()
    assert shown["name"] == "github"
    assert shown["fields"] == ["username", "password", "otp", "api_token"]
    assert shown["origins"] == ["https://github.com"]  # the same origin, written three ways
    listed = api.get("/api/vault/")
    assert [c["name"] for c in listed.json()] == ["github"]
    detail = api.get(f"/api/vault/{shown['id']}/")
    for answer in (made, listed, detail, api.get("/api/schema/")):
        _no_value_in(answer.content.decode())
    stored = VaultCredential.objects.get(pk=shown["id"])
    _no_value_in(json.dumps(stored.secret))
    assert vault_values(owner_id=user.pk, name="github") == {
        "username": USERNAME, "password": PASSWORD, "otp": TOTP, "api_token": TOKEN,
    }  # fmt: skip


def test_an_edit_replaces_the_values_given_and_keeps_the_others_unread(user: User, api: APIClient) -> None:
    made = _create(api).json()
    edited = api.patch(
        f"/api/vault/{made['id']}/",
        {"password": "a-new-password-31", "totp_secret": "", "secrets": {"api_token": "", "pin": "2468"},
         "origins": ["https://github.com", "https://gist.github.com"]},
        format="json",
    )  # fmt: skip
    assert edited.status_code == 200, edited.content
    assert edited.json()["fields"] == ["username", "password", "pin"]
    assert edited.json()["origins"] == ["https://github.com", "https://gist.github.com"]
    assert "a-new-password-31" not in edited.content.decode()
    assert vault_values(owner_id=user.pk, name="github") == {
        "username": USERNAME, "password": "a-new-password-31", "pin": "2468",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"name": "git hub"}, "cannot name a credential"),
        ({"name": "github.com"}, "cannot name a credential"),
        ({"origins": []}, "at least one origin"),
        ({"origins": ["ftp://github.com"]}, "is not an origin"),
        ({"origins": ["https://github.com/login"]}, "no path"),
        ({"origins": ["https://user@github.com"]}, "is not an origin"),
        ({"password": ""}, "password"),
        ({"totp_secret": "not base32 at all!"}, "not base32"),
        ({"secrets": {"api key": "x"}}, "cannot name a secret"),
        ({"origins": "https://github.com"}, "origins"),
    ],
)
def test_bad_input_is_a_400_with_a_message_and_changes_nothing(api: APIClient, body: Any, says: str) -> None:
    first = _create(api, name="first").json()
    before = list(VaultCredential.objects.values())
    refused = _create(api, **body)
    assert refused.status_code == 400, refused.content
    assert says.lower() in json.dumps(refused.json()).lower()
    edited = api.patch(f"/api/vault/{first['id']}/", {k: v for k, v in body.items() if k != "name"} or body,
                       format="json")  # fmt: skip
    assert edited.status_code == 400, edited.content
    assert list(VaultCredential.objects.values()) == before


def test_a_second_credential_of_the_same_name_is_refused(api: APIClient) -> None:
    assert _create(api).status_code == 201
    again = _create(api, password="other")
    assert again.status_code == 400
    assert "already have a credential named 'github'" in again.json()["detail"]


def test_a_teammate_or_a_stranger_reaches_nothing_of_it(user: User, api: APIClient) -> None:
    made = _create(api).json()
    conversation = ConversationFactory(owner=user)
    teammate, stranger = UserFactory(), UserFactory()
    Share.objects.create(conversation=conversation, user=teammate, role=Share.Role.CONTROLLER, created_by=user)
    for other in (teammate, stranger):
        client = _client(other)
        assert client.get("/api/vault/").json() == []
        for method in (client.get, client.delete):
            assert method(f"/api/vault/{made['id']}/").status_code == 404
        assert client.patch(f"/api/vault/{made['id']}/", {"password": "mine"}, format="json").status_code == 404
        _no_value_in(client.get(f"/api/conversations/{conversation.pk}/").content.decode())
    assert APIClient().get("/api/vault/").status_code in (401, 403)
    assert vault_values(owner_id=user.pk, name="github")["password"] == PASSWORD


def test_delete_removes_it(api: APIClient) -> None:
    made = _create(api).json()
    assert api.delete(f"/api/vault/{made['id']}/").status_code == 204
    assert api.get("/api/vault/").json() == []


def test_values_rotate_with_the_keys(user: User, api: APIClient, settings: Any) -> None:
    _create(api)
    new = Fernet.generate_key().decode()
    settings.HIVE_ENCRYPTION_KEYS = [new, *settings.HIVE_ENCRYPTION_KEYS]
    call_command("rotate_encryption_keys")
    settings.HIVE_ENCRYPTION_KEYS = [new]  # the old keys are gone now
    assert vault_values(owner_id=user.pk, name="github")["password"] == PASSWORD


def test_the_admin_shows_names_and_owners_only(user: User, api: APIClient) -> None:
    made = _create(api).json()
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    listing = admin.get("/admin/vault/vaultcredential/")
    assert listing.status_code == 200
    assert "github" in listing.content.decode()
    page = admin.get(f"/admin/vault/vaultcredential/{made['id']}/change/").content.decode()
    _no_value_in(page)
    assert "https://github.com" not in page
