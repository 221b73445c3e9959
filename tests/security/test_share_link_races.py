"""A share link revoked, or given another role, while a teammate opens it: the teammate ends up without access, or
with the new role. The accept and the owner's change run on two database connections, the change arriving between
the accept's read of the link and its share's insert."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tests.factories import ConversationFactory, UserFactory
from tests.support.processes import wait_until
from webapp.conversations.models import Conversation
from webapp.sharing import services
from webapp.sharing.models import Share
from webapp.sharing.selectors import conversation_access

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's"),
]


class _Change(threading.Thread):
    """Work on a database connection of its own, whose server process is known (to see it wait for a lock)."""

    def __init__(self, target: Any, errors: list[BaseException]) -> None:
        super().__init__(daemon=True)
        self._target, self._errors = target, errors
        self.backend: int | None = None
        self._connected = threading.Event()

    def run(self) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.backend = int(cursor.fetchone()[0])
            self._connected.set()
            self._target()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self._errors.append(exc)
        finally:
            self._connected.set()
            connection.close()

    def started(self) -> _Change:
        self.start()
        assert self._connected.wait(10)
        return self


def _in_thread(target: Any, errors: list[BaseException]) -> _Change:
    return _Change(target, errors).started()


def _done_or_waiting_for_a_lock(change: _Change) -> None:
    """Wait until the owner's change has committed, or waits for a row the accept has locked."""

    def waiting_for_a_lock() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid = %s", [change.backend])
            return bool(cursor.fetchone()[0])

    wait_until(lambda: not change.is_alive() or waiting_for_a_lock(), 10, "the change to be done or to wait")


def _accepted_with_a_change_between(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[Share], object]
) -> tuple[Conversation, User, Share, list[BaseException]]:
    """A teammate opens a controller link, and the owner's `change` of the link comes between the accept's read of
    the link and its end; both are done when this returns, with what each raised."""
    owner, teammate = UserFactory(), UserFactory()
    conversation = ConversationFactory(owner=owner)
    link = services.share_link_create(
        conversation=conversation, role="controller", expires_in_minutes=60, created_by=owner
    )
    looked_up, change_tried = threading.Event(), threading.Event()
    original = services.share_link_get

    def link_get_then_pause(*, token: str, lock: bool = False) -> Share:
        found = original(token=token, lock=lock)
        looked_up.set()
        change_tried.wait(10)  # the owner's change runs now (or waits for us, if the accept locked the link)
        return found

    monkeypatch.setattr(services, "share_link_get", link_get_then_pause)
    errors: list[BaseException] = []
    accepting = _in_thread(lambda: services.share_link_accept(token=str(link.token), user=teammate), errors)
    assert looked_up.wait(10)
    changing = _in_thread(lambda: change(Share.objects.get(pk=link.pk)), errors)
    _done_or_waiting_for_a_lock(changing)  # either way, let the accept go on
    change_tried.set()
    accepting.join(20)
    changing.join(20)
    assert not accepting.is_alive()
    assert not changing.is_alive()
    return conversation, teammate, link, errors


def test_a_link_revoked_while_it_is_accepted_grants_no_access(monkeypatch: pytest.MonkeyPatch) -> None:
    conversation, teammate, link, errors = _accepted_with_a_change_between(
        monkeypatch, lambda link: services.share_revoke(share=link)
    )
    # An accept refused because the link is revoked is fine; any other error is not what this test looks at.
    assert all("revoked" in str(exc) for exc in errors), errors
    assert Share.objects.get(pk=link.pk).revoked_at is not None
    live = Share.objects.filter(conversation=conversation, user=teammate, revoked_at__isnull=True)
    assert conversation_access(user=teammate, conversation_id=conversation.pk) is None, (
        f"the teammate still has {conversation_access(user=teammate, conversation_id=conversation.pk)!r} access "
        f"through a revoked link: live shares {list(live.values('id', 'role', 'via_link_id', 'revoked_at'))}"
    )


def test_a_link_made_viewer_while_it_is_accepted_grants_no_control(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same window for a re-role: the owner turns a controller link into a viewer link while it is accepted."""
    conversation, teammate, link, errors = _accepted_with_a_change_between(
        monkeypatch, lambda link: services.share_update(share=link, role="viewer")
    )
    assert not errors, errors
    assert Share.objects.get(pk=link.pk).role == "viewer"
    assert conversation_access(user=teammate, conversation_id=conversation.pk) in (None, "viewer")
