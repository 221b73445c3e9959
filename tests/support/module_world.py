"""Data built once for a module's many tests, each of which runs in a savepoint inside it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction


@contextmanager
def rolled_back(django_db_blocker: Any) -> Iterator[None]:
    """A transaction open for the with block and rolled back at its end, for a module-scoped fixture: what each test
    changes is rolled back with the test, and nothing reaches the database (files deleted by a test are removed only
    on commit, which never comes)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)
