"""Test connection says what came back: the model's words, that it answered with a tool call (so tool calling works),
or, when a service refuses the tool a profile with tool calling on offers, that tool calling may need turning off."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

from tests.support.llm_server import Reply, ScriptedLLM

pytestmark = pytest.mark.django_db


@pytest.fixture
def model(scripted_llm_server: ScriptedLLM, settings: Any) -> Iterator[ScriptedLLM]:
    scripted_llm_server.reset()
    settings.HIVE_LLM_ALLOWED_PRIVATE_HOSTS = [urlsplit(scripted_llm_server.base_url).netloc]
    yield scripted_llm_server
    scripted_llm_server.reset()


def check(api: APIClient, model: ScriptedLLM, *, tools: bool) -> dict[str, Any]:
    made = api.post(
        "/api/model-profiles/",
        {"name": "local", "provider": "custom", "base_url": model.base_url, "model": "fake-1", "supports_tools": tools},
        format="json",
    )
    assert made.status_code == 201, made.content
    answer = api.post(f"/api/model-profiles/{made.json()['id']}/test/")
    assert answer.status_code == 200
    return dict(answer.json())


def test_a_text_answer_is_quoted(api: APIClient, model: ScriptedLLM) -> None:
    model.script(lambda request: Reply(content="ok"))
    answer = check(api, model, tools=False)
    assert answer["ok"] is True
    assert answer["detail"] == "Connected to fake-1: it answered “ok”."
    assert "tools" not in model.requests[-1], "a profile without tool calling is offered no tool"


def test_a_tool_call_says_tool_calling_works(api: APIClient, model: ScriptedLLM) -> None:
    model.script(
        lambda request: (
            Reply(tool_calls=[{"name": request["tools"][0]["function"]["name"], "arguments": {}}])
            if request.get("tools")
            else Reply(content="no tools came")
        )
    )
    answer = check(api, model, tools=True)
    assert answer["ok"] is True
    assert answer["detail"] == "Connected to fake-1: it answered with a tool call — tool calling works."


def test_a_service_that_refuses_tools_is_told_to_turn_tool_calling_off(api: APIClient, model: ScriptedLLM) -> None:
    model.script(lambda request: Reply(status=400, error='"auto" tool choice requires --enable-auto-tool-choice'))
    answer = check(api, model, tools=True)
    assert answer["ok"] is False
    assert "400" in answer["detail"]
    assert answer["detail"].endswith("if the service cannot take tools, turn it off.")
