"""A conversation's files through the API: uploads and downloads listed alike, served as attachments (never inline, a
safe name, nosniff) to those who may read the conversation, hidden from everyone else; a download kept by the service
is named safely, typed from its bytes, and refused past the size limit or its owner's quota, leaving nothing behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.support.downloads import CSV, tiny_pdf
from webapp.conversations.file_services import download_keep
from webapp.conversations.files import safe_name
from webapp.conversations.models import Conversation, ConversationFile
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run, Step
from webapp.sharing.models import Share

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(tmp_path: Path, settings: Any) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _kept(conversation: Conversation, tmp_path: Path, name: str, body: bytes, **ids: Any) -> ConversationFile:
    path = tmp_path / "copy"
    path.write_bytes(body)
    return download_keep(
        conversation_id=conversation.pk, name=name, source_url="https://reports.example/q3", path=path,
        size=len(body), **ids,
    )  # fmt: skip


def _media_files() -> list[Path]:
    root = Path(django_settings.MEDIA_ROOT)
    return [path for path in root.rglob("*") if path.is_file()] if root.exists() else []


def test_uploads_and_downloads_are_listed_alike(conversation: Conversation, api: APIClient, tmp_path: Path) -> None:
    uploaded = api.post(
        f"/api/conversations/{conversation.pk}/files/",
        {"file": SimpleUploadedFile("notes.txt", b"plain words\n", content_type="image/png")},
        format="multipart",
    )
    assert uploaded.status_code == 201, uploaded.content
    run = Run.objects.create(conversation=conversation, status="running")
    step = Step.objects.create(run=run, index=0, kind="action", action="click")
    downloaded = _kept(conversation, tmp_path, "report.csv", CSV, run_id=run.pk, step_id=step.pk)

    listed = api.get(f"/api/conversations/{conversation.pk}/files/").json()
    assert [(f["name"], f["origin"]) for f in listed] == [("notes.txt", "upload"), ("report.csv", "download")]
    upload, download = listed
    assert upload["content_type"] == "text/plain", "the client's claimed type is not believed"
    assert download == {
        "id": downloaded.pk,
        "name": "report.csv",
        "size": len(CSV),
        "content_type": "text/csv",
        "origin": "download",
        "created_at": download["created_at"],
        "url": f"/api/conversations/{conversation.pk}/files/{downloaded.pk}/download/",
        "source_url": "https://reports.example/q3",
        "run": run.pk,
        "step": step.pk,
    }
    assert sorted(upload) == sorted(download)


def test_a_file_is_served_as_an_attachment_to_readers_and_hidden_from_strangers(
    conversation: Conversation, tmp_path: Path
) -> None:
    owner = conversation.owner
    viewer, stranger = UserFactory(), UserFactory()
    Share.objects.create(conversation=conversation, user=viewer, role="viewer", created_by=owner)
    page = b"<!doctype html><script>alert(document.cookie)</script>"
    stored = _kept(conversation, tmp_path, "report\u202egpj.html", page)
    url = f"/api/conversations/{conversation.pk}/files/{stored.pk}/download/"

    for reader in (owner, viewer):
        response = _client(reader).get(url, HTTP_ACCEPT="text/html,application/xhtml+xml")
        assert response.status_code == 200
        assert b"".join(response.streaming_content) == page  # type: ignore[attr-defined]
        assert response["Content-Disposition"] == 'attachment; filename="reportgpj.html"', "never inline"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert "sandbox" in response["Content-Security-Policy"]
    assert _client(stranger).get(url).status_code == 404
    assert APIClient().get(url).status_code in (401, 403)
    assert _client(stranger).get(f"/api/conversations/{conversation.pk}/files/").status_code == 404

    other = ConversationFactory(owner=stranger)
    theirs = _kept(other, tmp_path, "theirs.csv", CSV)
    wrong = f"/api/conversations/{conversation.pk}/files/{theirs.pk}/download/"
    assert _client(owner).get(wrong).status_code == 404, "another conversation's file does not exist here"


def test_a_name_outside_ascii_is_given_as_rfc_6266_filename_star(conversation: Conversation, tmp_path: Path) -> None:
    stored = _kept(conversation, tmp_path, "Prüfbericht 2026.pdf", tiny_pdf("Prüfung"))
    response = _client(conversation.owner).get(f"/api/conversations/{conversation.pk}/files/{stored.pk}/download/")
    assert response["Content-Disposition"] == "attachment; filename*=utf-8''Pr%C3%BCfbericht%202026.pdf"
    assert response["Content-Type"] == "application/pdf"


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\boot.ini", "boot.ini"),
        ("CON.txt", "CON_.txt"),
        ("nul", "nul_"),
        ("report\u202egpj.exe", "reportgpj.exe"),
        ("line\r\nbreak:here?.csv", "linebreak_here_.csv"),
        (".hidden", "hidden"),
        ("..", "download"),
        ("", "download"),
        ("x" * 400 + ".csv", "x" * 146 + ".csv"),
    ],
)
def test_hostile_names_become_safe(raw: str, safe: str) -> None:
    assert safe_name(raw) == safe


def test_a_download_past_the_limit_or_the_quota_is_refused_and_stored_nowhere(
    conversation: Conversation, tmp_path: Path, settings: Any
) -> None:
    settings.HIVE_DOWNLOAD_MAX_BYTES = 1_000
    with pytest.raises(ApplicationError, match=r"report.csv was not kept: it is larger than the 0.001 MB"):
        _kept(conversation, tmp_path, "report.csv", b"x" * 1_001)

    settings.HIVE_DOWNLOAD_QUOTA_BYTES = 1_500
    _kept(conversation, tmp_path, "first.csv", b"x" * 1_000)
    elsewhere = ConversationFactory(owner=conversation.owner)  # the quota is the owner's, across conversations
    with pytest.raises(ApplicationError, match="keeps 0.0015 MB of downloads at most"):
        _kept(elsewhere, tmp_path, "second.csv", b"y" * 600)

    assert list(ConversationFile.objects.values_list("name", flat=True)) == ["first.csv"]
    assert [path.name for path in _media_files()] == ["first.csv"]


def test_the_files_api_is_in_the_schema(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    listed = schema["paths"]["/api/conversations/{conversation_id}/files/"]
    assert "get" in listed
    assert "post" in listed
    served = schema["paths"]["/api/conversations/{conversation_id}/files/{file_id}/download/"]["get"]
    assert "application/octet-stream" in served["responses"]["200"]["content"]
