"""Retention: screenshots, recordings, uploads, downloads, traces and model logs older than the settings allow are
removed (files and rows), the rest is kept; `manage.py prune` and the scheduled task do it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.utils import timezone

from browser_pool.recording import RecordedFrame
from webapp.conversations.models import Conversation, ConversationFile
from webapp.runs.models import ModelCall, Recording, Run, Step
from webapp.runs.recordings import recording_save

pytestmark = pytest.mark.django_db


def test_prune_removes_what_is_older_than_the_settings_allow(conversation: Conversation, settings: Any) -> None:
    settings.HIVE_RETAIN_SCREENSHOTS_DAYS = 7
    settings.HIVE_RETAIN_UPLOADS_DAYS = 7
    settings.HIVE_RETAIN_DOWNLOADS_DAYS = 7
    settings.HIVE_RETAIN_MODEL_LOGS_DAYS = 7
    long_ago = timezone.now() - timedelta(days=8)
    run = Run.objects.create(conversation=conversation, status="succeeded")
    old_step = Step.objects.create(run=run, index=0, kind="action", action="click", status="succeeded")
    new_step = Step.objects.create(run=run, index=1, kind="action", action="click", status="succeeded")
    for step in (old_step, new_step):
        step.screenshot.save("s.jpg", ContentFile(b"\xff\xd8\xff\xd9"), save=True)
    Step.objects.filter(pk=old_step.pk).update(started_at=long_ago)
    old_file = ConversationFile(conversation=conversation, name="old.txt", size=3)
    old_file.file.save("old.txt", ContentFile(b"old"), save=True)
    ConversationFile.objects.filter(pk=old_file.pk).update(created_at=long_ago)
    old_download = ConversationFile(conversation=conversation, name="old.csv", size=4, origin="download")
    old_download.file.save("old.csv", ContentFile(b"a,b\n"), save=True)
    ConversationFile.objects.filter(pk=old_download.pk).update(created_at=long_ago)
    new_download = ConversationFile(conversation=conversation, name="new.csv", size=4, origin="download")
    new_download.file.save("new.csv", ContentFile(b"a,b\n"), save=True)
    old_call = ModelCall.objects.create(run=run, index=0, request={}, response={}, duration_ms=5)
    ModelCall.objects.filter(pk=old_call.pk).update(created_at=long_ago)
    ModelCall.objects.create(run=run, index=1, request={}, response={}, duration_ms=5)
    old_shot, new_shot, old_upload, old_csv = (
        str(old_step.screenshot.name),
        str(new_step.screenshot.name),
        str(old_file.file.name),
        str(old_download.file.name),
    )

    call_command("prune")

    assert not default_storage.exists(old_shot)
    assert default_storage.exists(new_shot)
    old_step.refresh_from_db()
    assert not old_step.screenshot
    assert not default_storage.exists(old_upload)
    assert not default_storage.exists(old_csv)
    assert list(ConversationFile.objects.values_list("name", flat=True)) == ["new.csv"]
    assert old_csv.startswith("downloads/"), "downloads are kept apart from uploads"
    assert list(ModelCall.objects.values_list("index", flat=True)) == [1]
    assert Step.objects.count() == 2, "what happened stays; only its heavy parts go"


def test_prune_removes_traces_older_than_the_setting_and_keeps_their_runs(
    conversation: Conversation, settings: Any
) -> None:
    settings.HIVE_RETAIN_TRACES_DAYS = 7
    old_run = Run.objects.create(conversation=conversation, status="failed")
    new_run = Run.objects.create(conversation=conversation, status="failed")
    for run in (old_run, new_run):
        run.trace.save("trace.zip", ContentFile(b"PK\x05\x06" + b"\0" * 18), save=True)
    Run.objects.filter(pk=old_run.pk).update(created_at=timezone.now() - timedelta(days=8))
    old_zip, new_zip = str(old_run.trace.name), str(new_run.trace.name)

    call_command("prune")

    assert not default_storage.exists(old_zip)
    assert default_storage.exists(new_zip)
    old_run.refresh_from_db()
    assert not old_run.trace
    assert Run.objects.count() == 2
    assert old_zip.startswith("traces/")


def test_prune_removes_recordings_as_old_as_the_screenshots_it_removes(
    conversation: Conversation, settings: Any
) -> None:
    settings.HIVE_RETAIN_SCREENSHOTS_DAYS = 7
    old_run = Run.objects.create(conversation=conversation, status="succeeded")
    new_run = Run.objects.create(conversation=conversation, status="succeeded")
    frame = RecordedFrame(b"\xff\xd8\xff\xd9", 1, 1, 1_700_000_000_000)
    old = recording_save(run_id=old_run.pk, frames=[frame])
    new = recording_save(run_id=new_run.pk, frames=[frame])
    old_name, new_name = str(old.file.name), str(new.file.name)
    Recording.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))

    call_command("prune")

    assert not default_storage.exists(old_name)
    assert default_storage.exists(new_name)
    assert list(Recording.objects.values_list("run_id", flat=True)) == [new_run.pk]
