from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_signup_signs_in_and_me_knows_the_user() -> None:
    client = APIClient()
    response = client.post("/api/auth/signup/", {"username": "ada", "password": "a-long-passphrase"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["username"] == "ada"
    assert client.get("/api/auth/me/").json()["username"] == "ada"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "ada", "password": "short"}, "password"),
        ({"username": "bad name!", "password": "a-long-passphrase"}, "username"),
        ({"password": "a-long-passphrase"}, "username"),
        ({"username": "ada", "password": 12345678}, "password"),
    ],
)
def test_signup_rejects_bad_input_with_a_message(body: dict[str, object], field: str) -> None:
    response = APIClient().post("/api/auth/signup/", body, format="json")
    assert response.status_code == 400
    messages = response.json()[field]
    assert messages, f"no message says what is wrong with the {field}"
    assert all(isinstance(message, str) and message for message in messages)
    assert not get_user_model().objects.exists(), "a refused signup creates no account"


def test_signup_refuses_a_taken_username(user: User) -> None:
    response = APIClient().post(
        "/api/auth/signup/", {"username": user.username.upper(), "password": "a-long-passphrase"}, format="json"
    )
    assert response.status_code == 400
    assert "taken" in response.json()["detail"]


def test_login_logout_cycle(user: User) -> None:
    client = APIClient()
    assert client.get("/api/auth/me/").status_code == 403
    bad = client.post("/api/auth/login/", {"username": user.username, "password": "wrong-password"}, format="json")
    assert bad.status_code == 400
    assert "Wrong username or password" in bad.json()["detail"]
    ok = client.post("/api/auth/login/", {"username": user.username, "password": PASSWORD}, format="json")
    assert ok.status_code == 200
    assert client.get("/api/auth/me/").status_code == 200
    assert client.post("/api/auth/logout/").status_code == 204
    assert client.get("/api/auth/me/").status_code == 403


def test_personal_api_token_works_for_scripts_and_can_be_revoked(api: APIClient) -> None:
    token = api.post("/api/auth/token/").json()["token"]
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert script.post("/api/conversations/", {"title": "from a script"}, format="json").status_code == 201
    rotated = api.post("/api/auth/token/").json()["token"]
    assert rotated != token
    refused = script.get("/api/conversations/")
    assert refused.status_code in (401, 403)
    assert "Invalid token" in refused.json()["detail"]
    api.delete("/api/auth/token/")
    script.credentials(HTTP_AUTHORIZATION=f"Token {rotated}")
    assert "Invalid token" in script.get("/api/conversations/").json()["detail"]


def test_hive_admin_command_creates_a_staff_user_that_can_open_admin() -> None:
    call_command("hive_admin", username="root", password="an-admin-passphrase")
    admin = get_user_model().objects.get(username="root")
    assert admin.is_staff
    assert admin.is_superuser
    client = APIClient()
    signed_in = client.post("/api/auth/login/", {"username": "root", "password": "an-admin-passphrase"}, format="json")
    assert signed_in.status_code == 200
    assert client.get("/admin/").status_code == 200
