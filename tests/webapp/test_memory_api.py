from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from webapp.memory.models import Note, Persona

pytestmark = pytest.mark.django_db


def test_notes_create_edit_delete(api: APIClient) -> None:
    note = api.post("/api/notes/", {"title": "Seat", "body": "I prefer aisle seats."}, format="json")
    assert note.status_code == 201
    nid = note.json()["id"]
    assert (
        api.patch(f"/api/notes/{nid}/", {"body": "Window seats now."}, format="json").json()["body"]
        == "Window seats now."
    )
    assert [n["title"] for n in api.get("/api/notes/").json()] == ["Seat"]
    assert api.delete(f"/api/notes/{nid}/").status_code == 204
    assert not Note.objects.exists()


def test_personas_have_unique_names(api: APIClient) -> None:
    body = {"name": "Friendly", "voice": "warm and brief", "instructions": "Use first names."}
    assert api.post("/api/personas/", body, format="json").status_code == 201
    again = api.post("/api/personas/", body, format="json")
    assert again.status_code == 400
    assert "already have" in again.json()["detail"]
    assert Persona.objects.count() == 1


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/notes/", {"title": "", "body": "x"}), ("/api/notes/", {"title": "x"}), ("/api/personas/", {"name": "x"})],
)
def test_bad_input_is_refused(api: APIClient, path: str, body: dict[str, str]) -> None:
    assert api.post(path, body, format="json").status_code == 400
    assert not Note.objects.exists()
    assert not Persona.objects.exists()


def test_other_users_notes_and_personas_are_invisible(api: APIClient) -> None:
    stranger = APIClient()
    stranger.force_login(UserFactory())
    nid = stranger.post("/api/notes/", {"title": "Secret", "body": "PIN 1234"}, format="json").json()["id"]
    pid = stranger.post("/api/personas/", {"name": "Mine", "voice": "curt"}, format="json").json()["id"]
    assert api.get("/api/notes/").json() == []
    assert api.get("/api/personas/").json() == []
    assert api.get(f"/api/notes/{nid}/").status_code == 404
    assert api.patch(f"/api/notes/{nid}/", {"body": "hacked"}, format="json").status_code == 404
    assert api.delete(f"/api/personas/{pid}/").status_code == 404
    assert Note.objects.get(pk=nid).body == "PIN 1234"
