"""The OpenAPI schema says what the API really answers, errors included: every operation may answer the JSON error
shapes below (webapp.core.exceptions), so clients and schemathesis can rely on them."""

from __future__ import annotations

from typing import Any

from webapp.core.types import JsonObject

ERROR = {
    "type": "object",
    "description": '{"detail": "..."} for a refusal; {"field": ["message", ...]} for invalid input.',
    "properties": {
        "detail": {"type": "string"},
        "limit": {"type": "string", "description": "which quota was reached (429)"},
        "resets_at": {"type": "string", "nullable": True, "description": "when it resets (429)"},
    },
    "additionalProperties": True,
}
ERROR_STATUSES = {
    "400": "Bad input: what is wrong, by field or in `detail`.",
    "401": "The token is missing, unknown or expired.",
    "403": "Signed out, or your role does not allow this.",
    "404": "No such object, or not yours to see.",
    "405": "This method is not allowed here.",
    "409": "It conflicts with the current state (e.g. a run is active).",
    "413": "The request body is too large.",
    "415": "Send JSON (or multipart for uploads).",
    "429": "A rate limit or quota was reached; `detail` says which and when it resets.",
}


def add_error_responses(result: JsonObject, generator: Any, request: Any, public: bool) -> JsonObject:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERROR_STATUSES.items():
                responses.setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": reference}}}
                )
    return result
