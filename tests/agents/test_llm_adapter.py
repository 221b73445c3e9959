"""The LLM adapter: provider presets, lenient tool-call parsing, the fenced-JSON fallback, streaming and retries."""

from __future__ import annotations

from typing import Any

import pytest

from agents.llm import PROVIDERS, LLMClient, LLMError, ModelConfig, NoModelConfiguredError, preset_for
from agents.llm.fenced import parse_fenced_reply
from agents.llm.stream import ReplyStream
from agents.llm.toolcalls import ToolCallAccumulator, parse_arguments
from tests.agents.support import model
from tests.support.llm_server import Reply, ScriptedLLM

TOOLS = ["click", "type", "get_elements", "navigate"]


# -- presets and capabilities ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "tools", "vision", "parallel"),
    [
        ("openai", True, True, True),
        ("deepseek", True, False, False),
        ("qwen", True, True, True),
        ("glm", True, True, False),
        ("moonshot", True, False, False),
        ("ollama", False, False, False),
        ("custom", False, False, False),
        ("something-new", False, False, False),
    ],
)
def test_capabilities_come_from_the_provider_preset(provider: str, tools: bool, vision: bool, parallel: bool) -> None:
    config = ModelConfig(base_url="http://127.0.0.1:1/v1", model="m", provider=provider)
    assert (config.uses_tool_calling, config.sees_images, config.calls_tools_in_parallel) == (tools, vision, parallel)


def test_a_profile_overrides_its_providers_capabilities() -> None:
    config = ModelConfig(base_url="", model="llama3.1", provider="ollama", supports_tools=True, supports_vision=True)
    assert config.uses_tool_calling
    assert config.sees_images
    assert config.endpoint == PROVIDERS["ollama"].base_url


def test_from_values_uses_the_providers_base_url_and_refuses_an_incomplete_setup() -> None:
    assert ModelConfig.from_values(base_url="", model="deepseek-chat", provider="DeepSeek").endpoint == (
        "https://api.deepseek.com/v1"
    )
    with pytest.raises(NoModelConfiguredError):
        ModelConfig.from_values(base_url="", model="m")  # custom: no URL to fall back on
    with pytest.raises(NoModelConfiguredError):
        ModelConfig.from_values(base_url="http://x/v1", model=" ")
    assert preset_for("QWEN").label == "Qwen"


# -- tool-call arguments --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"index": 3}', {"index": 3}),
        ({"index": 3}, {"index": 3}),  # an object, as some GLM and Ollama builds send
        ("", {}),
        ("  ", {}),
        (None, {}),
        ("null", {}),
        ('"{\\"index\\": 3}"', {"index": 3}),  # encoded twice
        ('{"index": 3,}', {"index": 3}),  # a trailing comma
        ('```json\n{"index": 3}\n```', {"index": 3}),
    ],
)
def test_arguments_are_read_leniently(raw: Any, expected: dict[str, Any]) -> None:
    assert parse_arguments(raw) == (expected, "")


@pytest.mark.parametrize(("raw", "error"), [('{"index":', "not valid JSON"), ("[1, 2]", "JSON object"), (7, "int")])
def test_unreadable_arguments_give_an_error_not_a_guess(raw: Any, error: str) -> None:
    arguments, problem = parse_arguments(raw)
    assert arguments == {}
    assert error in problem


def test_streamed_tool_call_pieces_are_assembled() -> None:
    calls = ToolCallAccumulator()
    calls.add(0, "call_a", "click", "")
    calls.add(0, None, None, '{"ind')
    calls.add(0, None, None, 'ex": 4}')
    calls.add(1, "call_b", "type", '{"index": 2, "text": "hi"}')
    calls.add(None, "call_c", "navigate", {"url": "https://example.com"})  # no index, object arguments
    assembled = calls.calls()
    assert [(c.id, c.name, c.arguments) for c in assembled] == [
        ("call_a", "click", {"index": 4}),
        ("call_b", "type", {"index": 2, "text": "hi"}),
        ("call_c", "navigate", {"url": "https://example.com"}),
    ]


# -- the fenced-JSON fallback ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "calls"),
    [
        ('I will click.\n```json\n{"tool": "click", "arguments": {"index": 2}}\n```', [("click", {"index": 2})]),
        ('```JSON\n{"tool": "click", "arguments": {"index": 2}}\n```', [("click", {"index": 2})]),
        ('```\n{"tool": "click", "arguments": {"index": 2}}\n```', [("click", {"index": 2})]),
        ('```json {"tool": "click", "arguments": {"index": 2},}```', [("click", {"index": 2})]),
        ('{"tool": "get_elements", "arguments": {}}', [("get_elements", {})]),
        ('```json\n{"name": "navigate", "parameters": {"url": "a.com"}}\n```', [("navigate", {"url": "a.com"})]),
        ('```json\n{"thought": "t", "action": {"tool": "click", "parameters": {"index": 1}}}\n```', [("click", {"index": 1})]),
        ('```json\n{"tool": "type", "arguments": "{\\"index\\": 1, \\"text\\": \\"x\\"}"}\n```', [("type", {"index": 1, "text": "x"})]),
        (
            '```json\n[{"tool": "type", "arguments": {"index": 1, "text": "Ada"}}, {"tool": "click", "arguments": {"index": 3}}]\n```',
            [("type", {"index": 1, "text": "Ada"}), ("click", {"index": 3})],
        ),
    ],
)  # fmt: skip
def test_fenced_calls_are_found(reply: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    parsed = parse_fenced_reply(reply, TOOLS)
    assert [(call.name, call.arguments) for call in parsed.calls] == calls
    assert not parsed.error


@pytest.mark.parametrize(
    "reply",
    [
        "The order number is HX-42.",
        'Here is the data:\n```json\n{"name": "Ada", "email": "ada@example.com"}\n```',  # data, not a call
        "```python\nprint('hi')\n```",
    ],
)
def test_a_reply_without_a_call_is_the_final_answer(reply: str) -> None:
    parsed = parse_fenced_reply(reply, TOOLS)
    assert parsed.calls == []
    assert parsed.error == ""
    assert parsed.text == reply.strip()


def test_a_broken_json_block_is_reported_so_the_model_can_fix_it() -> None:
    parsed = parse_fenced_reply('```json\n{"tool": "click", "arguments": {"index": }\n```', TOOLS)
    assert parsed.calls == []
    assert "could not be read" in parsed.error


# -- streaming ------------------------------------------------------------------------------------------------


async def _feed(stream: ReplyStream, pieces: list[str]) -> None:
    for piece in pieces:
        await stream.feed(piece)
    await stream.finish()


@pytest.mark.asyncio
async def test_think_tags_become_reasoning_not_reply() -> None:
    shown: list[str] = []

    async def show(text: str) -> None:
        shown.append(text)

    stream = ReplyStream(show, hold_fences=False)
    await _feed(stream, ["<thi", "nk>The form needs a name", "</th", "ink>\nDone: order HX-42."])
    assert "".join(shown) == "Done: order HX-42."
    assert stream.reasoning == "The form needs a name"


@pytest.mark.asyncio
async def test_fenced_blocks_are_held_back_even_when_the_fence_is_split() -> None:
    shown: list[str] = []

    async def show(text: str) -> None:
        shown.append(text)

    stream = ReplyStream(show, hold_fences=True)
    await _feed(stream, ["Clicking Submit.\n`", '``json\n{"tool": "click"}\n', "```"])
    assert "".join(shown) == "Clicking Submit.\n"
    assert stream.held.startswith("```json")
    await stream.release_held()
    assert "".join(shown) == stream.content


# -- the client against a real HTTP server ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_streamed_tool_calls_and_usage_arrive_whole(model_server: ScriptedLLM) -> None:
    model_server.script(
        lambda request: Reply(
            content="Looking.",
            tool_calls=[{"name": "type", "arguments": {"index": 12, "text": "a long text split in pieces"}}],
            prompt_tokens=30,
            completion_tokens=7,
        )
    )
    client = LLMClient(model(model_server.base_url))
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    try:
        result = await client.stream_chat([{"role": "user", "content": "hi"}], tools=[], on_delta=on_delta)
    finally:
        await client.close()
    assert "".join(deltas) == "Looking."
    assert [(c.name, c.arguments) for c in result.tool_calls] == [
        ("type", {"index": 12, "text": "a long text split in pieces"})
    ]
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (30, 7)


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [500, 429, 503])
async def test_transient_failures_are_retried_with_backoff(model_server: ScriptedLLM, status: int) -> None:
    def flaky(request: dict[str, Any]) -> Reply:
        return Reply(status=status) if len(model_server.requests) <= 2 else Reply(content="fine")

    model_server.script(flaky)
    client = LLMClient(model(model_server.base_url), backoff_base_s=0.01)
    try:
        result = await client.stream_chat([{"role": "user", "content": "hi"}])
    finally:
        await client.close()
    assert result.content == "fine"
    assert len(model_server.requests) == 3


@pytest.mark.asyncio
async def test_retries_stop_after_three_and_the_error_names_the_model(model_server: ScriptedLLM) -> None:
    model_server.script(lambda request: Reply(status=500, error="overloaded"))
    client = LLMClient(model(model_server.base_url, name="big-model"), backoff_base_s=0.01)
    try:
        with pytest.raises(LLMError) as failure:
            await client.stream_chat([{"role": "user", "content": "hi"}])
    finally:
        await client.close()
    assert len(model_server.requests) == 4  # the first try and three retries
    assert "big-model" in str(failure.value)
    assert "500" in str(failure.value)
    assert "overloaded" in str(failure.value)


@pytest.mark.asyncio
async def test_a_request_error_is_not_retried(model_server: ScriptedLLM) -> None:
    model_server.script(lambda request: Reply(status=401, error="bad key"))
    client = LLMClient(model(model_server.base_url), backoff_base_s=0.01)
    try:
        with pytest.raises(LLMError, match="API key"):
            await client.stream_chat([{"role": "user", "content": "hi"}])
    finally:
        await client.close()
    assert len(model_server.requests) == 1


def test_provider_quirks_shape_the_request() -> None:
    tools = [{"type": "function", "function": {"name": "click", "parameters": {"type": "object"}}}]
    qwen = LLMClient(ModelConfig(base_url="http://127.0.0.1:1/v1", model="qwen-max", provider="qwen"))
    deepseek = LLMClient(ModelConfig(base_url="http://127.0.0.1:1/v1", model="deepseek-chat", provider="deepseek"))
    assert qwen.payload([], tools)["enable_search"] is False
    assert qwen.payload([], tools)["parallel_tool_calls"] is True
    assert "parallel_tool_calls" not in deepseek.payload([], tools)
    assert "tools" not in deepseek.payload([], None)
