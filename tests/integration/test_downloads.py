"""Downloads through the whole stack: the agent (the scripted model) clicks a page's buttons that download a CSV and a
PDF; each file is kept with the conversation, listed by the API, served to its owner and a viewer as an attachment
and to nobody else, and read back by the agent (the model sees the CSV's rows and the PDF's text); the step that
downloaded it says so; a file larger than the limit is refused with a clear message and stored nowhere."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index, observations, user_request
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.downloads import BIG_BYTES, CSV, CSV_ROWS, PDF_TEXT, DownloadSite, download_site, tiny_pdf
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.workflows import ended
from webapp.conversations.models import Conversation, ConversationFile
from webapp.runs.models import Run
from webapp.sharing.models import Share

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

KEPT = re.compile(r'([\w.-]+) \([^)]*\) was downloaded and kept with the conversation as file \\?"(\d+)\\?"')


@pytest.fixture
def site() -> Iterator[DownloadSite]:
    with download_site() as served:
        yield served


def _kept_files(request: dict[str, Any]) -> dict[str, str]:
    """The files the agent was told were kept, by name: their ids."""
    return {name: file_id for text in observations(request) for name, file_id in KEPT.findall(text)}


def _downloads_and_reads(request: dict[str, Any]) -> Reply:
    """Open the page, click both download buttons, then read each kept file by the id its step gave."""
    made = calls_made(request)
    kept = _kept_files(request)
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("navigate", lambda: {"url": user_request(request).split()[-1]}),
        ("get_elements", lambda: {}),
        ("click", lambda: {"index": find_index(request, "Download CSV")}),
        ("click", lambda: {"index": find_index(request, "Download PDF")}),
        ("get_page_content", lambda: {"file_id": kept["report.csv"]}),
        ("get_page_content", lambda: {"file_id": kept["report.pdf"]}),
    ]
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}])
    return Reply(content="Both reports are in the chat.")


def _downloads_the_big_file(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("navigate", lambda: {"url": user_request(request).split()[-1]}),
        ("get_elements", lambda: {}),
        ("click", lambda: {"index": find_index(request, "Big file")}),
    ]
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}])
    return Reply(content="The file was too large.")


def _agent_does(client: APIClient, conversation: Conversation, task: str) -> Run:
    sent = client.post(f"/api/conversations/{conversation.pk}/messages/", {"content": task}, format="json")
    assert sent.status_code == 201, sent.content
    run = ended(sent.json()["run"]["id"], seconds=90)
    assert run.status == "succeeded", run.error
    return run


def _stored_downloads() -> set[Path]:
    """Every download file in storage (other tests' too: what matters is what a run adds)."""
    folder = Path(settings.MEDIA_ROOT) / "downloads"
    return {path for path in folder.rglob("*") if path.is_file()} if folder.exists() else set()


def test_the_agent_downloads_reports_that_readers_get_and_the_agent_reads(llm: ScriptedLLM, site: DownloadSite) -> None:
    llm.script(_downloads_and_reads)
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    run = _agent_does(owner, conversation, f"Download both reports from {site.url}/")

    # The model read both files back: the CSV's rows and the PDF's text, fenced like a page's text.
    seen = "\n".join(observations(llm.requests[-1]))
    for row in CSV_ROWS[1:]:
        assert ",".join(row) in seen
    assert PDF_TEXT in seen

    # Each click's step says what it downloaded.
    clicks = list(run.steps.filter(action="click").order_by("index"))
    assert "report.csv (text/csv" in clicks[0].observation
    assert "was downloaded" in clicks[0].observation
    assert "report.pdf (application/pdf" in clicks[1].observation

    listed = owner.get(f"/api/conversations/{conversation.pk}/files/")
    assert listed.status_code == 200, listed.content
    files = {item["name"]: item for item in listed.json()}
    assert set(files) == {"report.csv", "report.pdf"}
    assert {item["origin"] for item in files.values()} == {"download"}
    assert files["report.csv"]["content_type"] == "text/csv"
    assert files["report.pdf"]["content_type"] == "application/pdf"
    assert files["report.csv"]["size"] == len(CSV)
    assert files["report.csv"]["source_url"] == f"{site.url}/report.csv"
    assert files["report.csv"]["run"] == run.pk
    assert files["report.csv"]["step"] == clicks[0].pk
    assert files["report.pdf"]["step"] == clicks[1].pk

    viewer, stranger = UserFactory(), UserFactory()
    Share.objects.create(conversation=conversation, user=viewer, role="viewer", created_by=conversation.owner)
    for reader in (owner, signed_in(viewer)):
        for name, body in (("report.csv", CSV), ("report.pdf", tiny_pdf(PDF_TEXT))):
            got = reader.get(files[name]["url"])
            assert got.status_code == 200
            assert b"".join(got.streaming_content) == body  # type: ignore[attr-defined]
            assert got["Content-Disposition"].startswith("attachment")
            assert name in got["Content-Disposition"]
            assert got["X-Content-Type-Options"] == "nosniff"
    outsider = signed_in(stranger)
    assert outsider.get(files["report.csv"]["url"]).status_code == 404
    assert outsider.get(f"/api/conversations/{conversation.pk}/files/").status_code == 404


@pytest.mark.asyncio
async def test_a_download_past_the_limit_is_refused_and_stored_nowhere(
    llm: ScriptedLLM, site: DownloadSite, stream_factory: Callable[..., Any]
) -> None:
    llm.script(_downloads_the_big_file)
    conversation = await sync_to_async(ConversationFactory)()
    before = _stored_downloads()
    stream = await stream_factory(conversation.owner, conversation.pk)
    run = await sync_to_async(
        lambda: _agent_does(signed_in(conversation.owner), conversation, f"Download the big file from {site.url}/")
    )()

    notice = await stream.until(lambda e: e["type"] == "session.notice" and e["kind"] == "download")
    assert "big.bin was not kept" in notice["text"]  # the user is told, not only the agent
    await sync_to_async(_nothing_kept)(run, conversation, llm, site, before)


def _nothing_kept(
    run: Run, conversation: Conversation, llm: ScriptedLLM, site: DownloadSite, before: set[Path]
) -> None:
    click = run.steps.get(action="click")
    limit = f"{settings.HIVE_DOWNLOAD_MAX_BYTES / 1e6:g} MB"
    assert "big.bin was not kept" in click.observation
    assert f"larger than the {limit} a download may be" in click.observation
    assert "big.bin was not kept" in observations(llm.requests[-1])[-1]  # the model was told
    assert not ConversationFile.objects.filter(conversation=conversation).exists()
    assert _stored_downloads() == before
    assert site.sent["/big.bin"] < BIG_BYTES, "the download should be stopped on the way"
