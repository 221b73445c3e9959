"""What a model call cost: every call the agent's model client logs carries the model that answered, the tokens the
service reported (cached prompt tokens too) and their price from genai-prices' table, a price set by hand, or
none ("price unknown") for a model the table does not know."""

from __future__ import annotations

import dataclasses
import socket
import threading
from decimal import Decimal
from typing import Any

import pytest
from genai_prices import Usage as TableUsage
from genai_prices import calc_price

from agents import run_agent_turn
from agents.llm import LLMClient
from agents.llm.pricing import TokenPrice, table_price
from tests.agents.support import NoBrowser, RecordingSink, config, model
from tests.support.llm_server import Reply, ScriptedLLM

# gpt-4o-mini at OpenAI: $0.15 per million input tokens, $0.075 per million cached ones, $0.60 per million output.
GPT_4O_MINI_COST = Decimal("0.00345")  # 10,000 fresh + 2,000 cached input tokens, 3,000 output tokens


async def _one_call(server: ScriptedLLM, **model_values: Any) -> dict[str, Any]:
    """One chat through the real client against the scripted server; the response summary it logged."""
    server.script(
        lambda request: Reply(content="Hello.", prompt_tokens=12_000, cached_tokens=2_000, completion_tokens=3_000)
    )
    logged: list[dict[str, Any]] = []

    async def on_call(request: dict[str, Any], response: dict[str, Any], duration_ms: int) -> None:
        logged.append(response)

    client = LLMClient(model(server.base_url, **model_values))
    try:
        await client.stream_chat([{"role": "user", "content": "Hi"}], on_call=on_call)
    finally:
        await client.close()
    assert len(logged) == 1
    return logged[0]


@pytest.mark.asyncio
async def test_a_known_model_is_priced_as_the_table_prices_it(model_server: ScriptedLLM) -> None:
    logged = await _one_call(model_server, name="gpt-4o-mini", provider="openai")
    assert logged["model"] == "gpt-4o-mini"
    assert logged["provider"] == "openai"
    assert logged["usage"] == {"prompt_tokens": 12_000, "completion_tokens": 3_000, "cached_tokens": 2_000}
    table = calc_price(
        TableUsage(input_tokens=12_000, output_tokens=3_000, cache_read_tokens=2_000),
        model_ref="gpt-4o-mini",
        provider_id="openai",
    )
    assert Decimal(logged["cost_usd"]) == table.total_price == GPT_4O_MINI_COST


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("name", "provider"),
    [
        ("scripted", "openai"),  # OpenAI's table has no such model
        ("gpt-4o-mini", "custom"),  # a local server naming a hosted model is not priced as the hosted one
        ("llama3.1", "ollama"),  # local models cost what nobody set
    ],
)
async def test_a_model_the_table_does_not_know_has_no_price(
    model_server: ScriptedLLM, name: str, provider: str
) -> None:
    logged = await _one_call(model_server, name=name, provider=provider)
    assert logged["cost_usd"] is None
    assert logged["usage"]["prompt_tokens"] == 12_000, "its tokens are still counted"


@pytest.mark.asyncio
async def test_a_price_set_by_hand_wins_over_the_table(model_server: ScriptedLLM) -> None:
    own = TokenPrice(input_per_mtok=Decimal("2"), output_per_mtok=Decimal("8"))
    logged = await _one_call(model_server, name="gpt-4o-mini", provider="openai", price=own)
    # Cached tokens at the input price: a hand-set price knows no cache discount.
    assert Decimal(logged["cost_usd"]) == Decimal("0.048")  # 12,000 x $2/M + 3,000 x $8/M
    local = await _one_call(model_server, name="llama3.1", provider="ollama", price=TokenPrice(Decimal(0), Decimal(0)))
    assert Decimal(local["cost_usd"]) == 0, "a local model set free is free, not unknown"


def test_the_table_has_no_prices_for_qwens_own_service() -> None:
    dashscope = "https://dashscope.aliyuncs.com/compatible-mode/v1"
    assert (
        table_price(model="qwen-max", provider="qwen", base_url=dashscope, prompt_tokens=1, completion_tokens=1) is None
    )


def test_the_base_url_names_the_service_when_the_table_knows_it() -> None:
    priced = table_price(
        model="deepseek-chat",
        provider="custom",
        base_url="https://api.deepseek.com/v1",
        prompt_tokens=1_000,
        completion_tokens=1_000,
    )
    as_deepseek = table_price(
        model="deepseek-chat", provider="deepseek", base_url="", prompt_tokens=1_000, completion_tokens=1_000
    )
    assert priced is not None
    assert priced == as_deepseek


def test_pricing_works_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table ships in the package: pricing opens no connection and never starts the updater that would fetch a
    newer table."""
    attempts: list[object] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        attempts.append(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    known = table_price(model="gpt-4o-mini", provider="openai", base_url="", prompt_tokens=1, completion_tokens=1)
    unknown = table_price(
        model="no-such-model", provider="custom", base_url="http://127.0.0.1:9/v1", prompt_tokens=1, completion_tokens=1
    )
    assert known is not None
    assert known > 0
    assert unknown is None
    assert attempts == []
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("genai_prices")]


@pytest.mark.asyncio
async def test_a_fallback_models_calls_are_logged_and_priced_as_its_own(
    model_server: ScriptedLLM, sink: RecordingSink
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if request["model"] == "primary":
            return Reply(status=500, error="primary is overloaded")
        return Reply(content="Answer from the fallback.", prompt_tokens=1_000, completion_tokens=100)

    model_server.script(handler)
    cfg = dataclasses.replace(
        config(model_server.base_url, capabilities={"name": "primary"}),
        fallback_model=model(model_server.base_url, name="gpt-4o-mini", provider="openai"),
    )
    await run_agent_turn(config=cfg, history=[("user", "Hi")], tabs=NoBrowser(), sink=sink)
    answered = [call["response"] for call in sink.model_calls if "error" not in call["response"]]
    failed = [call["response"] for call in sink.model_calls if "error" in call["response"]]
    assert [(r["model"], r["provider"]) for r in answered] == [("gpt-4o-mini", "openai")]
    assert Decimal(answered[0]["cost_usd"]) == Decimal("0.00021")  # 1,000 x $0.15/M + 100 x $0.60/M
    assert {r["model"] for r in failed} == {"primary"}
    assert all(r["cost_usd"] is None and r["usage"]["prompt_tokens"] == 0 for r in failed)
