"""Django's PostgreSQL backend, storing text with NUL characters or lone surrogates (webapp.core.storable) instead of
failing the write."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations
from psycopg.adapt import Buffer
from psycopg.types.string import StrBinaryDumper, StrDumperUnknown

from webapp.core.storable import storable_json, storable_text


class _StorableStrDumper(StrDumperUnknown):
    def dump(self, obj: str) -> Buffer | None:
        return super().dump(storable_text(obj))


class _StorableStrBinaryDumper(StrBinaryDumper):
    def dump(self, obj: str) -> Buffer | None:
        return super().dump(storable_text(obj))


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: Any) -> Any:
        return super().adapt_json_value(storable_json(value), encoder)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        # Registered last, these are the dumpers psycopg picks for every str parameter (text and binary format).
        connection.adapters.register_dumper(str, _StorableStrBinaryDumper)
        connection.adapters.register_dumper(str, _StorableStrDumper)
        return connection
