"""Structured logs: in JSON mode each line is one object carrying the ids bound where the work happens; a request
binds its user; plain mode stays readable."""

from __future__ import annotations

import io
import json
import logging
import logging.config

import pytest
import structlog
from django.contrib.auth.models import User
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient

from webapp.settings.observability import logging_config


def _capture(log_format: str) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    config = logging_config(log_format, "INFO")
    formatter = logging.config.DictConfigurator(config).configure_formatter(config["formatters"]["structured"])
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger(f"hive.test.{log_format}")
    logger.handlers, logger.propagate = [handler], False
    return logger, stream


def test_json_lines_carry_the_bound_ids() -> None:
    logger, stream = _capture("json")
    structlog.contextvars.bind_contextvars(run_id=41, conversation_id=7, user_id=3)
    try:
        logger.warning("run %s failed: %s", 41, "worker lost")
    finally:
        structlog.contextvars.clear_contextvars()
    line = json.loads(stream.getvalue())
    assert line["event"] == "run 41 failed: worker lost"
    assert (line["run_id"], line["conversation_id"], line["user_id"]) == (41, 7, 3)
    assert line["level"] == "warning"
    assert line["timestamp"].endswith("Z")


def test_plain_lines_read_as_text() -> None:
    logger, stream = _capture("plain")
    logger.info("hello %s", "there")
    text = stream.getvalue()
    assert "hello there" in text
    assert not text.lstrip().startswith("{")


@pytest.mark.django_db
def test_a_request_binds_its_user(user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.accounts import apis

    seen: dict[str, object] = {}
    answer = apis.MeApi.get

    def get_and_look(self: apis.MeApi, request: Request) -> Response:
        seen.update(structlog.contextvars.get_contextvars())
        return answer(self, request)

    monkeypatch.setattr(apis.MeApi, "get", get_and_look)
    client = APIClient()
    client.force_login(user)
    assert client.get("/api/auth/me/").status_code == 200
    assert seen["user_id"] == user.pk
    assert seen["path"] == "/api/auth/me/"
