"""Runs stored before runs had numbers get them by their conversation's order ("Run 1" in each conversation), and an
agent turn from then names the author of the message that started it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("runs", "0007_alter_run_kind"), ("conversations", "0009_conversation_origin")]
AFTER = [("runs", "0009_run_number")]


@pytest.fixture
def executor() -> Iterator[MigrationExecutor]:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    executor.loader.build_graph()
    yield executor
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_existing_runs_are_numbered_per_conversation_and_keep_their_authors(executor: MigrationExecutor) -> None:
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    Conversation = apps.get_model("conversations", "Conversation")
    Message = apps.get_model("conversations", "Message")
    Run = apps.get_model("runs", "Run")
    ada, bob = User.objects.create(username="ada"), User.objects.create(username="bob")
    first, second = Conversation.objects.create(owner=ada), Conversation.objects.create(owner=ada)
    start = timezone.now()
    # Created out of order on purpose: the numbers follow when each run was made.
    late = Run.objects.create(conversation=first, status="succeeded")
    early = Run.objects.create(conversation=first, status="failed", kind="action")
    Run.objects.filter(pk=late.pk).update(created_at=start + timedelta(seconds=5))
    Run.objects.filter(pk=early.pk).update(created_at=start)
    elsewhere = Run.objects.create(conversation=second, status="succeeded")
    Message.objects.create(conversation=first, role="user", content="hi", run=late, author=bob)

    executor.loader.build_graph()
    executor.migrate(AFTER)

    Run = executor.loader.project_state(AFTER).apps.get_model("runs", "Run")
    numbered = {run.pk: (run.number, run.started_by_id) for run in Run.objects.all()}
    assert numbered == {early.pk: (1, None), late.pk: (2, bob.pk), elsewhere.pk: (1, None)}
