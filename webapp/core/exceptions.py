"""Every API error answers JSON with a message a person can act on."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A service refused a request for a reason the caller should see (answered as 400 or the given status)."""

    def __init__(self, message: str, *, status_code: int = status.HTTP_400_BAD_REQUEST) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, **getattr(exc, "extra", {})}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    if isinstance(exc, exceptions.ParseError):
        return Response({"detail": f"Malformed request body: {exc.detail}"}, status=status.HTTP_400_BAD_REQUEST)
    return exception_handler(exc, context)
