"""Tokens are counted for every run, however it ended: a failed or aborted turn cannot report a total, but each of
its model calls is in the run's log with the usage the service reported."""

from __future__ import annotations

import pytest

from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from webapp.runs.services import model_call_record, run_finish

pytestmark = pytest.mark.django_db


def _call(run: Run, prompt: int, completion: int) -> None:
    usage = {"prompt_tokens": prompt, "completion_tokens": completion}
    model_call_record(run_id=run.pk, request={}, response={"usage": usage}, duration_ms=10)


@pytest.mark.parametrize("status", ["failed", "aborted"])
def test_a_run_that_did_not_succeed_keeps_its_tokens(conversation: Conversation, status: str) -> None:
    run = Run.objects.create(conversation=conversation, status="running")
    _call(run, 1200, 40)
    _call(run, 1500, 60)
    model_call_record(run_id=run.pk, request={}, response={"error": "timed out"}, duration_ms=30_000)
    ended = run_finish(run_id=run.pk, status=status, error="stopped")
    assert (ended.prompt_tokens, ended.completion_tokens) == (2700, 100)


def test_a_reported_total_is_not_counted_twice(conversation: Conversation) -> None:
    run = Run.objects.create(conversation=conversation, status="running")
    _call(run, 1000, 50)
    ended = run_finish(run_id=run.pk, status="succeeded", prompt_tokens=1000, completion_tokens=50)
    assert (ended.prompt_tokens, ended.completion_tokens) == (1000, 50)
