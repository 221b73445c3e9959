"""Django REST framework and the OpenAPI schema."""

from __future__ import annotations

import re

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()

# DRF reads a rate's period by its first letter only ("30/mango" would be 30 a minute): the whole word is checked.
_RATE = re.compile(r"[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)")


def throttle_rates(defaults: dict[str, str]) -> dict[str, str | None]:
    """Each scope's rate, from HIVE_RATE_<SCOPE> when set (HIVE_RATE_RUNS=30/minute; `none` for no limit).

    A malformed value stops the start with the variable's name rather than failing a request later."""
    rates: dict[str, str | None] = {}
    for scope, default in defaults.items():
        name = f"HIVE_RATE_{scope.upper()}"
        value = env.str(name, default=default).strip()
        if value.lower() == "none":
            rates[scope] = None
        elif _RATE.fullmatch(value):
            rates[scope] = value
        else:
            raise ImproperlyConfigured(
                f"{name}={value!r} is not a rate: write requests/period, e.g. {name}={default} "
                "(period: second, minute, hour or day), or `none` for no limit."
            )
    return rates


REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "webapp.accounts.tokens.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["webapp.core.json_input.SafeJSONRenderer"],
    # JSON with lone surrogates, NUL characters or deep nesting is refused with a 400 (webapp/core/json_input.py).
    "DEFAULT_PARSER_CLASSES": ["webapp.core.json_input.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "webapp.core.exceptions.api_exception_handler",
    # Per user (per address before signing in): requests over the rate get a 429 saying when to try again.
    "DEFAULT_THROTTLE_RATES": throttle_rates(
        {
            "signup": "20/hour",
            "login": "60/hour",
            "runs": "30/minute",
            "actions": "120/minute",
            "tool_calls": "60/minute",
            # New conversations (the API's and MCP clients'): each may bring up a browser session.
            "conversations": "60/hour",
        }
    ),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

HIVE_JSON_MAX_DEPTH = 64

SPECTACULAR_SETTINGS = {
    "TITLE": "Hive API",
    "DESCRIPTION": "Conversations with a browser agent: messages, runs, steps.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "webapp.core.schema.add_error_responses",
    ],
    # Several models have a "status" or "role": each enum gets its own name in the schema.
    "ENUM_NAME_OVERRIDES": {
        "RunStatusEnum": "webapp.runs.models.Run.Status",
        "StepStatusEnum": "webapp.runs.models.Step.Status",
        "RunKindEnum": "webapp.runs.models.Run.Kind",
        "StepKindEnum": "webapp.runs.models.Step.Kind",
        "ConfirmationStatusEnum": "webapp.runs.models.Confirmation.Status",
        "MessageRoleEnum": "webapp.conversations.models.Message.Role",
        "ShareRoleEnum": "webapp.sharing.models.Share.Role",
    },
}
