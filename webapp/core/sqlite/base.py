"""Django's SQLite backend, storing text with lone surrogates (webapp.core.storable) instead of failing the write.
JSON needs nothing: it is stored with such characters escaped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.backends.sqlite3 import base

from webapp.core.storable import without_lone_surrogates


def _storable(params: Any) -> Any:
    if isinstance(params, Mapping):
        return {name: _storable_value(value) for name, value in params.items()}
    return [_storable_value(value) for value in params]


def _storable_value(value: Any) -> Any:
    return without_lone_surrogates(value) if isinstance(value, str) else value


class _StorableCursor(base.SQLiteCursorWrapper):
    def execute(self, query: str, params: Any = None) -> Any:
        return super().execute(query, None if params is None else _storable(params))

    def executemany(self, query: str, param_list: Iterable[Any]) -> Any:
        return super().executemany(query, (_storable(params) for params in param_list))


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=_StorableCursor)
