"""schemathesis over the OpenAPI schema, in-process: generated requests (valid and not) to every operation, signed
in as a user with a conversation; the API must answer without a server error and as its schema says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def api_schema(db: None) -> Iterator[Any]:
    # As Django's test client does: the test's database connection stays open between requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def token(db: None) -> str:
    from tests.factories import ConversationFactory, UserFactory
    from webapp.accounts.services import api_token_rotate

    user = UserFactory(username="fuzzer")
    ConversationFactory(owner=user)
    return api_token_rotate(user=user)[1]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_api_answers_as_its_schema_says(api_schema: Any, token: str) -> None:
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 50
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=10, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        def exercise(case: Any) -> None:
            case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)

        try:
            exercise()
        except (Exception, BaseExceptionGroup) as exc:  # every operation is tried; the report lists all that failed
            failures.append(f"{operation.label}: {str(exc)[:1500]}")
    assert not failures, f"{len(failures)} operations broke:\n\n" + "\n\n".join(failures)
