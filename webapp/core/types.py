"""Names for data whose shape is open on purpose, so a signature says which kind of open it is."""

from __future__ import annotations

from typing import Any

# A JSON object whose keys are not ours to fix: a JSON schema, a tool's arguments (checked against its schema where it
# runs), what a page or a model sent, a serializer's output, a document a user wrote. Defined once, in the layer below.
from browser_pool.types import JsonObject

__all__ = ["JsonObject", "Scope"]

# An ASGI connection scope (the ASGI specification's keys, plus what middleware adds: "user", "hive_user" ...).
Scope = dict[str, Any]
